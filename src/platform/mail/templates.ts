export interface RenderedMail {
  template: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Carries a secret (a code, a link with a token, a generated password): the outbox keeps its
   * subject and bodies only until it is delivered.
   */
  sensitive?: boolean;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:sans-serif;max-width:560px;margin:auto"><h2>${escapeHtml(title)}</h2>${body}${button}</body></html>`;
}

/** One-time code sent to the current address (e-mail change step 1, and any other OTP). */
export function otpMail(p: { code: string; purpose: string; validMinutes: number }): RenderedMail {
  const lines = [
    `Your verification code to ${p.purpose} is ${p.code}.`,
    `It is valid for ${p.validMinutes} minutes. If you did not ask for it, ignore this message and consider changing your password.`,
  ];
  return { template: 'otp', subject: `Your verification code: ${p.code}`, text: lines.join('\n\n'), html: layout('Verification code', lines), sensitive: true };
}

/** A link to click: registration, new e-mail confirmation, password reset. */
export function linkMail(p: { template: string; subject: string; intro: string; url: string; validHours: number }): RenderedMail {
  const lines = [p.intro, `The link is valid for ${p.validHours} hours and can be used once.`];
  return {
    template: p.template,
    subject: p.subject,
    text: `${lines[0]}\n\n${p.url}\n\n${lines[1]}`,
    html: layout(p.subject, lines, { label: 'Open link', url: p.url }),
    sensitive: true,
  };
}

/** Receipt for a payment received (top-up paid, postpaid invoice verified). */
export function receiptMail(p: {
  reference: string;
  description: string;
  amount: string;
  currency: string;
  paidAt: Date;
  note?: string;
}): RenderedMail {
  const lines = [
    `We received your payment. Thank you.`,
    `Reference: ${p.reference}`,
    `Description: ${p.description}`,
    `Amount: ${p.currency} ${p.amount}`,
    `Paid at: ${p.paidAt.toISOString()}`,
    ...(p.note ? [`Note: ${p.note}`] : []),
  ];
  return { template: 'receipt', subject: `Payment receipt ${p.reference}`, text: lines.join('\n'), html: layout('Payment receipt', lines) };
}

/** A plain notice (security events, generated passwords). */
export function noticeMail(p: { template: string; subject: string; lines: string[]; sensitive?: boolean }): RenderedMail {
  return { template: p.template, subject: p.subject, text: p.lines.join('\n\n'), html: layout(p.subject, p.lines), ...(p.sensitive ? { sensitive: true } : {}) };
}
