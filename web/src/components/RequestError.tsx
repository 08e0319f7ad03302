// A failed request's red note (issue #33): the server's message in the reader's language (serverMessage), else
// the screen's own text; nothing while there is no error.
import { Alert, type AlertProps } from '@mantine/core';
import { serverMessage } from '../api/http.ts';

export function RequestError({
  error,
  fallback,
  testId,
  ...alert
}: { error: unknown; fallback: string; testId?: string } & AlertProps) {
  if (!error) return null;
  return (
    <Alert color="red" data-testid={testId} {...alert}>
      {serverMessage(error) ?? fallback}
    </Alert>
  );
}
