import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorOf } from '../db/errors.js';
import { AppError, type FieldError } from '../errors.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

function fieldOf(context: string | undefined, issue: ValidationIssue): string {
  const base = issue.instancePath?.replace(/^\//, '').replace(/\//g, '.') ?? '';
  const extra =
    (issue.params?.missingProperty as string | undefined) ?? (issue.params?.additionalProperty as string | undefined) ?? '';
  const field = [base, extra].filter(Boolean).join('.');
  return field || context || 'body';
}

function messageOf(issue: ValidationIssue): string {
  if (issue.keyword === 'additionalProperties') return 'is not an allowed field';
  if (issue.keyword === 'required') return 'is required';
  return issue.message ?? 'is invalid';
}

/** Fastify's own client errors (bad JSON, wrong content type, body too large...) and their codes. */
const FRAMEWORK_CLIENT_ERRORS: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST', message: 'Invalid content length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'VALIDATION_FAILED', message: 'Request body must not be empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'VALIDATION_FAILED', message: 'Request body is not valid JSON' },
  FST_ERR_BAD_URL: { code: 'BAD_REQUEST', message: 'Malformed URL' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'URI_TOO_LONG', message: 'A path parameter is too long' },
  FST_ERR_ASYNC_CONSTRAINT: { code: 'BAD_REQUEST', message: 'Bad request' },
};

/** Validation answers list at most this many field errors. */
export const MAX_LISTED_ERRORS = 50;

export function errorBody(request: FastifyRequest, message: string, code: string, errors?: FieldError[]) {
  return { message, code, ...(errors && errors.length > 0 ? { errors } : {}), request_id: request.id };
}

/**
 * Fastify's `frameworkErrors` option: errors the router raises before any route or hook runs
 * (a malformed percent-encoding in the path, a path parameter over maxParamLength). Without it
 * Fastify answers them itself, in its own body shape and without a request id.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = error.code ? FRAMEWORK_CLIENT_ERRORS[error.code] : undefined;
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply
    .header('x-request-id', request.id)
    .status(status)
    .send(errorBody(request, known?.message ?? 'Bad request', known?.code ?? 'BAD_REQUEST'));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError & { validation?: ValidationIssue[]; validationContext?: string }, request, reply) => {
    const error = thrown instanceof AppError ? thrown : (clientErrorOf(thrown) ?? thrown);
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      if (error.status >= 500) request.log.error({ err: error }, 'server error');
      return reply.status(error.status).send(errorBody(request, error.message, error.code, error.errors));
    }
    if (error.validation) {
      // A 1 MiB body of unknown fields would otherwise answer megabytes of errors.
      const errors = error.validation.slice(0, MAX_LISTED_ERRORS).map((issue) => ({ field: fieldOf(error.validationContext, issue), message: messageOf(issue) }));
      return reply.status(400).send(errorBody(request, 'Validation failed', 'VALIDATION_FAILED', errors));
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(errorBody(request, 'Too many requests, try again later', 'RATE_LIMITED'));
    }
    const known = error.code ? FRAMEWORK_CLIENT_ERRORS[error.code] : undefined;
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBody(request, known?.message ?? error.message, known?.code ?? 'BAD_REQUEST'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(request, 'Internal server error', 'INTERNAL'));
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send(errorBody(request, `Route ${request.method} ${request.url.split('?')[0]} not found`, 'NOT_FOUND')),
  );
}
