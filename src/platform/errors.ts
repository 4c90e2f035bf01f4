export interface FieldError {
  field: string;
  message: string;
}

/** A failure a client can cause or must know about; the HTTP layer turns it into the error body. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message = 'Validation failed', errors?: FieldError[]) {
    super(400, 'VALIDATION_FAILED', message, errors);
  }
}

/** 400 with a specific code, for the spec's "wrong code" answers. */
export class BadRequestError extends AppError {
  constructor(code: string, message: string, errors?: FieldError[]) {
    super(400, code, message, errors);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'Authentication required') {
    super(401, 'UNAUTHENTICATED', message);
  }
}

export class InvalidSignatureError extends AppError {
  constructor(message = 'Invalid signature') {
    super(401, 'INVALID_SIGNATURE', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this', code = 'FORBIDDEN') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(what = 'Resource') {
    super(404, 'NOT_FOUND', `${what} not found`);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'CONFLICT') {
    super(409, code, message);
  }
}

export class QuotaExceededError extends AppError {
  constructor(message: string) {
    super(409, 'QUOTA_EXCEEDED', message);
  }
}

export class InsufficientBalanceError extends AppError {
  constructor(message = 'Insufficient balance') {
    super(402, 'INSUFFICIENT_BALANCE', message);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, message = 'Too many attempts, try again later') {
    super(429, 'RATE_LIMITED', message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export class MaintenanceError extends AppError {
  constructor() {
    super(503, 'MAINTENANCE', 'The service is under maintenance, please try again later', undefined, { 'retry-after': '300' });
  }
}
