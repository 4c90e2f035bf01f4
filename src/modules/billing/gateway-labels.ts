/**
 * What a person reads for a payment gateway. The API keeps the codes (`gateway_name`: pgone, pgtwo)
 * in requests and answers; screens, mails, notifications and PDFs show these names.
 */
const GATEWAY_LABELS: Record<string, string> = {
  pgone: 'PG One',
  pgtwo: 'PG Two',
};

export function gatewayLabel(code: string): string {
  return GATEWAY_LABELS[code] ?? code;
}

/** "BCA Virtual Account via PG One" */
export function paymentMethodLabel(gatewayCode: string, methodName: string): string {
  return `${methodName} via ${gatewayLabel(gatewayCode)}`;
}
