import { AppError } from '../../platform/errors.js';

/** The gateway refused or could not be reached while creating a payment. */
export class PaymentGatewayError extends AppError {
  constructor(gateway: string, detail: string) {
    super(502, 'GATEWAY_ERROR', `The payment gateway ${gateway} could not create the payment (${detail}); please try again`);
  }
}
