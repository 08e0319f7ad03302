// The payment-provider adapter (docs/billing.md): Rastro keeps invoices locally and, when a provider is
// configured, issues each one as a charge there. Today's only provider is Asaas (REST API v3):
//   base https://api.asaas.com/v3, sandbox https://api-sandbox.asaas.com/v3, header `access_token: <api key>`;
//   POST /customers {name, email, cpfCnpj, externalReference} → {id}
//   POST /payments {customer, billingType: 'UNDEFINED', value, dueDate, description, externalReference,
//                   fine: {value, type}, interest: {value}, discount: {value, dueDateLimitDays, type}}
//                  → {id, invoiceUrl, status}
//   DELETE /payments/{id} → {deleted: true, id}
// Errors come back as {errors: [{code, description}]}; they become ApiErrors (4xx from the provider: 400 with
// its description, anything else or no answer: 502), never a 500.
import type { AmountMode, InvoiceIntegration, InvoiceStatus, PaymentIntegration } from '@rastro/domain';
import { isInvoiceStatus } from '@rastro/domain';
import { ApiError } from '../../errors.ts';

export const ASAAS_URL = 'https://api.asaas.com/v3';
export const ASAAS_SANDBOX_URL = 'https://api-sandbox.asaas.com/v3';
const PROVIDER_TIMEOUT_MS = 20_000;

/** Who pays: the Rastro user, with the tax id (CPF/CNPJ) the provider requires. */
export interface ChargeCustomer {
  userId: number;
  name: string;
  email: string;
  taxId: string;
  /** The provider's id of this customer, if created before. */
  externalId: string | null;
}

export interface ChargeInvoice {
  id: number;
  value: number;
  dueDate: string;
  description: string;
}

export interface Charge {
  externalId: string;
  invoiceUrl: string | null;
  status: InvoiceStatus;
  /** The provider's customer id used (to remember it for the next charge). */
  customerId: string;
}

export interface PaymentProvider {
  readonly name: string;
  createCharge(customer: ChargeCustomer, invoice: ChargeInvoice): Promise<Charge>;
  cancelCharge(externalId: string): Promise<void>;
}

const providerError = (status: number, text: string) =>
  status >= 400 && status < 500 && status !== 401 && status !== 403
    ? new ApiError(400, `Payment provider refused: ${text}`, 'IllegalArgumentException')
    : new ApiError(502, `Payment provider error: ${text}`, 'WebApplicationException');

const amountType = (m: AmountMode) => (m === 'FIXED' ? 'FIXED' : 'PERCENTAGE');

export class AsaasProvider implements PaymentProvider {
  readonly name = 'asaas';
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly defaults: InvoiceIntegration,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers: {
          access_token: this.apiKey,
          accept: 'application/json',
          'user-agent': 'Rastro',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
    } catch {
      throw new ApiError(502, 'Payment provider unreachable', 'WebApplicationException');
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!res.ok) {
      const errors = (json as { errors?: Array<{ description?: unknown }> } | null)?.errors;
      const description =
        Array.isArray(errors) && errors.length
          ? errors.map((e) => String(e?.description ?? '')).join('; ')
          : `HTTP ${res.status}`;
      throw providerError(res.status, description.slice(0, 300));
    }
    if (!json || typeof json !== 'object') throw providerError(502, 'unexpected answer');
    return json as T;
  }

  async createCharge(customer: ChargeCustomer, invoice: ChargeInvoice): Promise<Charge> {
    let customerId = customer.externalId;
    if (!customerId) {
      const created = await this.call<{ id?: unknown }>('POST', '/customers', {
        name: customer.name || customer.email,
        email: customer.email.includes('@') ? customer.email : undefined,
        cpfCnpj: customer.taxId,
        externalReference: String(customer.userId),
      });
      if (typeof created.id !== 'string') throw providerError(502, 'customer without id');
      customerId = created.id;
    }
    const d = this.defaults;
    const payment = await this.call<{ id?: unknown; invoiceUrl?: unknown; status?: unknown }>(
      'POST',
      '/payments',
      {
        customer: customerId,
        billingType: 'UNDEFINED',
        value: invoice.value,
        dueDate: invoice.dueDate,
        description: invoice.description || d.description || undefined,
        externalReference: String(invoice.id),
        ...(d.fine > 0 ? { fine: { value: d.fine, type: amountType(d.fineMode) } } : {}),
        ...(d.interest > 0 ? { interest: { value: d.interest } } : {}),
        ...(d.discount > 0
          ? {
              discount: {
                value: d.discount,
                dueDateLimitDays: d.discountDays,
                type: amountType(d.discountMode),
              },
            }
          : {}),
      },
    );
    if (typeof payment.id !== 'string') throw providerError(502, 'payment without id');
    return {
      externalId: payment.id,
      invoiceUrl: typeof payment.invoiceUrl === 'string' ? payment.invoiceUrl : null,
      status: isInvoiceStatus(payment.status) ? payment.status : 'PENDING',
      customerId,
    };
  }

  async cancelCharge(externalId: string): Promise<void> {
    await this.call('DELETE', `/payments/${encodeURIComponent(externalId)}`);
  }
}

/** The configured provider, or null (invoices are then TARKAN_GENERATED, without a payment link). */
export function providerFor(
  payment: PaymentIntegration,
  defaults: InvoiceIntegration,
  asaasBaseUrl?: string,
): PaymentProvider | null {
  if (payment.provider !== 'asaas' || !payment.apiKey) return null;
  const base = asaasBaseUrl ?? (payment.sandbox ? ASAAS_SANDBOX_URL : ASAAS_URL);
  return new AsaasProvider(base, payment.apiKey, defaults);
}

/** Asaas webhook events → invoice statuses (others fall back to the payment's own status when known). */
export const ASAAS_EVENT_STATUS: Record<string, InvoiceStatus> = {
  PAYMENT_CREATED: 'PENDING',
  PAYMENT_RESTORED: 'PENDING',
  PAYMENT_RECEIVED: 'RECEIVED',
  PAYMENT_CONFIRMED: 'CONFIRMED',
  PAYMENT_RECEIVED_IN_CASH: 'RECEIVED_IN_CASH',
  PAYMENT_OVERDUE: 'OVERDUE',
  PAYMENT_DELETED: 'CANCELED',
  PAYMENT_REFUNDED: 'CANCELED',
  PAYMENT_REFUND_IN_PROGRESS: 'REFUND_IN_PROGRESS',
  PAYMENT_CHARGEBACK_REQUESTED: 'CHARGEBACK_REQUESTED',
  PAYMENT_CHARGEBACK_DISPUTE: 'CHARGEBACK_DISPUTE',
  PAYMENT_AWAITING_CHARGEBACK_REVERSAL: 'AWAITING_CHARGEBACK_REVERSAL',
  PAYMENT_DUNNING_REQUESTED: 'DUNNING_REQUESTED',
  PAYMENT_DUNNING_RECEIVED: 'DUNNING_RECEIVED',
  PAYMENT_AWAITING_RISK_ANALYSIS: 'AWAITING_RISK_ANALYSIS',
};

/** The status an Asaas webhook sets, or null when the event says nothing about the status. */
export function statusOfEvent(event: string, paymentStatus: unknown): InvoiceStatus | null {
  const mapped = ASAAS_EVENT_STATUS[event];
  if (mapped) return mapped;
  if (paymentStatus === 'REFUNDED') return 'CANCELED';
  return isInvoiceStatus(paymentStatus) ? paymentStatus : null;
}
