import type { CreatedPayment, CreatePaymentRequest, GatewayName } from './types.js';
import { digitsOf, gatewayAmount } from './signatures.js';

/** The local payment page and its instructions, shaped like the real gateway's answer. */
export function sandboxPayment(gateway: GatewayName, publicUrl: string, req: CreatePaymentRequest, vaPrefix: string): CreatedPayment {
  const paymentUrl = `${req.returnBase ?? publicUrl}/sandbox/pay/${gateway}/${req.invoiceId}`;
  const reference = `SBX${digitsOf(`${gateway}:${req.invoiceId}`, 12)}`;
  switch (req.methodType) {
    case 'VIRTUAL_ACCOUNT':
      return { paymentUrl, redirectUrl: null, vaNumber: `${vaPrefix}${digitsOf(req.invoiceId, 12)}`, qrString: null, gatewayReference: reference };
    case 'QRIS':
      return {
        paymentUrl,
        redirectUrl: null,
        vaNumber: null,
        qrString: `00020101021226610016ID.SANDBOX.WWW01189360000000000000000215${reference}5204481253033605406${gatewayAmount(req.totalAmount)}5802ID5912CLOUDPLATFORM6007JAKARTA62${String(req.invoiceId.length + 4).padStart(2, '0')}0136${req.invoiceId}`,
        gatewayReference: reference,
      };
    default:
      return { paymentUrl, redirectUrl: paymentUrl, vaNumber: null, qrString: null, gatewayReference: reference };
  }
}
