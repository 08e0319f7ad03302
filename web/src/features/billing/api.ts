// Billing requests (server/src/ext/billing): invoices and integrations under /{ns}, as TanStack Query hooks.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Integration, IntegrationKey, Invoice, InvoiceCreate } from '@rastro/domain';
import { ext } from '../../api/http.ts';

export const billingKeys = {
  invoices: (userId: number | null) => ['billing', 'invoices', userId ?? 'me'] as const,
  integrations: ['billing', 'integrations'] as const,
};

/** The invoices of `userId` (administrators) or of the caller (null). */
export function useInvoices(userId: number | null, enabled = true) {
  return useQuery({
    queryKey: billingKeys.invoices(userId),
    queryFn: () => ext.get<Invoice[]>('/invoices', userId ? { userId } : undefined),
    enabled,
  });
}

export function useCreateInvoice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: InvoiceCreate) => ext.post<Invoice>('/invoices', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['billing', 'invoices'] }),
  });
}

/** Marks an open invoice received in cash, or cancels it. */
export function useInvoiceAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'cash' | 'cancel' }) =>
      ext.post<Invoice>(`/invoices/${id}/${action}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['billing', 'invoices'] }),
  });
}

export function useIntegrations(enabled = true) {
  return useQuery({
    queryKey: billingKeys.integrations,
    queryFn: () => ext.get<Integration[]>('/integrations'),
    enabled,
  });
}

export function useSaveIntegration() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (value: Integration) =>
      ext.post<Integration[]>(`/integrations/${value.key as IntegrationKey}`, value),
    onSuccess: (list) => qc.setQueryData(billingKeys.integrations, list),
  });
}
