import { Type } from 'typebox';

/**
 * The headers of a route that takes an Idempotency-Key (optional); read it with
 * `idempotencyKeyOf(req.headers['idempotency-key'])`, which checks its form.
 */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        '1 to 255 visible ASCII characters. A repeat with the same key and body replays the first answer and does nothing else; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED; a repeat while the first request still runs waits up to 15 s for its answer (then 409 IDEMPOTENCY_IN_PROGRESS).',
    }),
  ),
});
