import { createHash } from 'node:crypto';
import { ValidationError, type FieldError } from '../../platform/errors.js';

/** At most this many files on one message. */
export const MAX_ATTACHMENTS = 3;
/** Each file, decoded. */
export const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024;
/** The reply routes take bodies this large (3 files of 2 MiB in base64 plus the message). */
export const REPLY_BODY_LIMIT = 9 * 1024 * 1024;

interface AllowedType {
  extensions: string[];
  /** the file's first bytes must match one of these (binary formats) */
  magic?: { offset: number; bytes: number[] }[];
  /** text formats: valid UTF-8 without NUL */
  text?: boolean;
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The types a ticket accepts: screenshots, documents and logs. Anything else is refused. */
export const ALLOWED_ATTACHMENT_TYPES: Record<string, AllowedType> = {
  'image/png': { extensions: ['png'], magic: [{ offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }] },
  'image/jpeg': { extensions: ['jpg', 'jpeg'], magic: [{ offset: 0, bytes: [0xff, 0xd8, 0xff] }] },
  'image/gif': { extensions: ['gif'], magic: [{ offset: 0, bytes: ascii('GIF87a') }, { offset: 0, bytes: ascii('GIF89a') }] },
  'image/webp': { extensions: ['webp'], magic: [{ offset: 8, bytes: ascii('WEBP') }] },
  'application/pdf': { extensions: ['pdf'], magic: [{ offset: 0, bytes: ascii('%PDF-') }] },
  'text/plain': { extensions: ['txt', 'log'], text: true },
  'text/csv': { extensions: ['csv'], text: true },
};

export interface AttachmentInput {
  filename: string;
  content_type: string;
  content_base64: string;
}

export interface CheckedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  sizeBytes: number;
  sha256: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The name without any path, control or quoting characters; keeps letters of any script. */
export function safeFilename(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  return base
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f"<>:|?*;]/g, '')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 200);
}

function startsWith(buf: Buffer, m: { offset: number; bytes: number[] }): boolean {
  return buf.length >= m.offset + m.bytes.length && m.bytes.every((b, i) => buf[m.offset + i] === b);
}

/**
 * Checks and decodes the attachments of one message: count, size, an allowed type whose
 * extension matches the name and whose bytes match the type (a renamed executable is refused).
 * Every problem is a 400 naming the field.
 */
export function checkAttachments(list: AttachmentInput[] | undefined): CheckedAttachment[] {
  if (!list || list.length === 0) return [];
  if (list.length > MAX_ATTACHMENTS) throw new ValidationError('Validation failed', [{ field: 'attachments', message: `at most ${MAX_ATTACHMENTS} files per message` }]);
  const errors: FieldError[] = [];
  const out: CheckedAttachment[] = [];
  list.forEach((a, i) => {
    const field = (f: string) => `attachments/${i}/${f}`;
    const type = ALLOWED_ATTACHMENT_TYPES[a.content_type.toLowerCase()];
    if (!type) {
      errors.push({ field: field('content_type'), message: `must be one of ${Object.keys(ALLOWED_ATTACHMENT_TYPES).join(', ')}` });
      return;
    }
    const filename = safeFilename(a.filename);
    const ext = filename.includes('.') ? filename.split('.').pop()!.toLowerCase() : '';
    if (filename === '' || !type.extensions.includes(ext)) {
      errors.push({ field: field('filename'), message: `must be a file name ending in .${type.extensions.join(' or .')}` });
      return;
    }
    const b64 = a.content_base64.replace(/\s+/g, '');
    if (b64.length % 4 !== 0 || !BASE64.test(b64)) {
      errors.push({ field: field('content_base64'), message: 'must be standard base64' });
      return;
    }
    const content = Buffer.from(b64, 'base64');
    if (content.length === 0) {
      errors.push({ field: field('content_base64'), message: 'is empty' });
      return;
    }
    if (content.length > MAX_ATTACHMENT_BYTES) {
      errors.push({ field: field('content_base64'), message: `the file is larger than ${MAX_ATTACHMENT_BYTES} bytes` });
      return;
    }
    const matches = type.text ? isPlainText(content) : type.magic!.some((m) => startsWith(content, m));
    if (!matches) {
      errors.push({ field: field('content_base64'), message: `the file's content is not ${a.content_type.toLowerCase()}` });
      return;
    }
    out.push({
      filename,
      contentType: a.content_type.toLowerCase(),
      content,
      sizeBytes: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
    });
  });
  if (errors.length > 0) throw new ValidationError('Validation failed', errors);
  return out;
}

function isPlainText(buf: Buffer): boolean {
  if (buf.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

/** Content-Disposition for a download: always an attachment, an ASCII fallback name and the UTF-8 one. */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
