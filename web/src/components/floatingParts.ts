// Mantine's floating pieces, a chunk of their own (loaded by ./floating.tsx after the first paint).
export { Menu, Tooltip } from '@mantine/core';
