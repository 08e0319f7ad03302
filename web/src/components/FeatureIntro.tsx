// The body of a page whose screens arrive in a later issue: its title and what it will hold.
import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function FeatureIntro({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children?: ReactNode;
}) {
  return (
    <Stack gap="xs" data-testid="feature-intro">
      <Title order={3} size="h5">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {description}
      </Text>
      {children}
    </Stack>
  );
}
