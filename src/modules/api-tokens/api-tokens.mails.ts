import { noticeMail, type RenderedMail } from '../../platform/mail/templates.js';
import type { ApiTokenRow } from './api-tokens.repository.js';

/* The mails about a customer's API tokens. None ever carries a secret: a token is named by its label and prefix. */

const minute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Where the owner revokes tokens: the console page (when there is one) and the API calls. */
function howToRevoke(consoleUrl: string | undefined): string {
  return consoleUrl
    ? `To revoke a token, open ${consoleUrl} (API tokens) or call DELETE /api/tokens/{id}; "Revoke all" there, or POST /api/tokens/revoke-all, revokes every token at once.`
    : 'To revoke a token, call DELETE /api/tokens/{id}; POST /api/tokens/revoke-all revokes every token at once.';
}

/** Sent to the owner when a token is created. */
export function tokenCreatedMail(token: ApiTokenRow, consoleUrl: string | undefined): RenderedMail {
  return noticeMail({
    template: 'api-token-created',
    subject: 'A new API token was added to your account',
    lines: [
      `An API token was created on your account at ${minute(token.createdAt)}.`,
      `Name: ${token.name}`,
      `Starts with: ${token.displayPrefix}`,
      `Scopes: ${token.scopes.join(', ')}`,
      `Expires: ${minute(token.expiresAt)}`,
      'If you did not create it, revoke it now, change your password, and check your account activity.',
      howToRevoke(consoleUrl),
    ],
  });
}

/**
 * Lines for a security notice (a password or e-mail change): the tokens that still work, since such
 * a change keeps them, and how to revoke them all.
 */
export function liveTokensLines(live: ApiTokenRow[], consoleUrl: string | undefined): string[] {
  if (live.length === 0) return ['No API token is active on your account.'];
  const list = live.map((t) => `• ${t.name} (${t.displayPrefix}…, ${t.scopes.join(', ')}; last used ${t.lastUsedAt ? minute(t.lastUsedAt) : 'never'}; expires ${minute(t.expiresAt)})`);
  return [
    `${live.length === 1 ? 'This API token still works' : `These ${live.length} API tokens still work`}: this change does not stop the scripts that use them.`,
    ...list,
    `If you did not create ${live.length === 1 ? 'it' : 'them all'}, or are not sure: ${howToRevoke(consoleUrl)}`,
  ];
}
