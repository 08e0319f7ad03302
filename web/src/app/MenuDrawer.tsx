// The phone's menu drawer (≤ 768 px), loaded only on a phone.
export { Drawer } from '@mantine/core';
