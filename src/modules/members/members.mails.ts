import { noticeMail, type RenderedMail } from '../../platform/mail/templates.js';

/* The mails of a team account, written to the person who reads them. */

interface Person {
  email: string;
  firstName: string;
  lastName: string;
}

const ROLE_WORDS: Record<string, string> = {
  owner: 'owner (everything, including ownership and closing the account)',
  admin: 'admin (everything but ownership)',
  billing: 'billing (top-ups, invoices, payment methods; no servers or other resources)',
  technical: 'technical (servers, networks, storage; no money)',
  read_only: 'read-only (can look, cannot change anything)',
};
const nameOf = (p: Person) => `${p.firstName} ${p.lastName}`.trim() || p.email;
const day = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function invitationMail(p: { account: Person; inviter: Person; role: string; expiresAt: Date; link: string | undefined; secret: string; existing: boolean }): RenderedMail {
  return noticeMail({
    template: 'member-invitation',
    subject: `${nameOf(p.inviter)} invited you to the account of ${nameOf(p.account)}`,
    sensitive: true,
    lines: [
      `${nameOf(p.inviter)} (${p.inviter.email}) invited you to work in the cloud account of ${nameOf(p.account)} as ${ROLE_WORDS[p.role] ?? p.role}.`,
      p.link
        ? `To accept, open ${p.link} and ${p.existing ? 'sign in with this address' : 'create your login with this address (or sign in if you have one)'}.`
        : `To accept, sign in with this address and call POST /api/invitations/accept with the token ${p.secret}.`,
      `The invitation works once and until ${day(p.expiresAt)}. If you did not expect it, ignore this mail: nothing happens unless you accept.`,
    ],
  });
}

export function roleChangedMail(p: { account: Person; from: string; to: string }): RenderedMail {
  return noticeMail({
    template: 'member-role-changed',
    subject: `Your role in the account of ${nameOf(p.account)} changed`,
    lines: [
      `Your role in the account of ${nameOf(p.account)} is now ${ROLE_WORDS[p.to] ?? p.to} (it was ${p.from.replace('_', '-')}).`,
      'If you had that account open, you may have to sign in again.',
    ],
  });
}

export function removedMail(p: { account: Person }): RenderedMail {
  return noticeMail({
    template: 'member-removed',
    subject: `You were removed from the account of ${nameOf(p.account)}`,
    lines: [
      `You are no longer a member of the account of ${nameOf(p.account)}: its servers, invoices and settings are closed to you, and your API tokens for it stopped working.`,
      'Your own account and any other team you belong to are not affected.',
    ],
  });
}

export function accountClosedMail(p: { account: Person; owner: boolean }): RenderedMail {
  return noticeMail({
    template: 'member-account-closed',
    subject: p.owner ? 'Your account is closed' : `The account of ${nameOf(p.account)} was closed`,
    lines: [
      p.owner
        ? `You closed the account of ${nameOf(p.account)}: nobody can work in it any more, and its sessions and API tokens stopped working. If you did not do this, write to support at once.`
        : `Its owner closed the account of ${nameOf(p.account)}: it is closed to you, and your sessions and API tokens for it stopped working.`,
      'Any other account you belong to is not affected.',
    ],
  });
}

export function ownershipConfirmMail(p: { account: Person; to: Person; link: string | undefined; secret: string; expiresAt: Date }): RenderedMail {
  return noticeMail({
    template: 'member-ownership-transfer',
    subject: 'Confirm handing over your account',
    sensitive: true,
    lines: [
      `You asked to make ${nameOf(p.to)} (${p.to.email}) the owner of the account of ${nameOf(p.account)}. You would stay in it as an admin.`,
      p.link ? `To confirm, open this link: ${p.link}` : `To confirm, call POST /api/accounts/ownership-transfer/confirm with the token ${p.secret}.`,
      `The link works once and until ${day(p.expiresAt)}. If you did not ask for this, ignore this mail and change your password.`,
    ],
  });
}
