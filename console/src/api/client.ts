import createClient from 'openapi-fetch';
import type { paths } from './schema';

/** The typed API client: paths, bodies and answers come from the server's OpenAPI document. */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

export interface FieldError {
  field: string;
  message: string;
}

/** An error answer of the API (its standard body), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

const listeners = new Set<(e: ApiError) => void>();
/** Called for every error answer (the console shows the maintenance page on MAINTENANCE). */
export function onApiError(fn: (e: ApiError) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

const refreshing = new Map<string, Promise<boolean>>();
/** One refresh at a time per surface: the access cookie lives 15 minutes, the refresh cookie longer. */
function refresh(staff: boolean): Promise<boolean> {
  const url = staff ? '/api/backoffice/auth/refresh' : '/api/auth/refresh';
  let p = refreshing.get(url);
  if (!p) {
    p = fetch(url, { method: 'POST', credentials: 'same-origin' })
      .then((r) => r.ok)
      .catch(() => false)
      .finally(() => refreshing.delete(url));
    refreshing.set(url, p);
  }
  return p;
}

function toError(answer: Answer<unknown>): ApiError {
  const body = (answer.error ?? {}) as { message?: string; code?: string; errors?: FieldError[] };
  const status = answer.response.status;
  return new ApiError(body.message ?? `The server answered ${status}`, status, body.code ?? 'ERROR', body.errors ?? []);
}

/**
 * Runs one API call and gives its `data`, or throws an ApiError with the API's message. A 401
 * (an expired access cookie) is answered by one refresh and the call is made again.
 */
export async function call<T>(fn: () => Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await fn();
    if (answer.response.status === 401) {
      const url = new URL(answer.response.url, location.href).pathname;
      const isAuthCall = /\/auth\/(login|refresh|2fa\/verify)/.test(url);
      if (!isAuthCall && (await refresh(url.startsWith('/api/backoffice')))) answer = await fn();
    }
  } catch (err) {
    throw new ApiError(err instanceof Error ? `The server could not be reached (${err.message})` : 'The server could not be reached', 0, 'NETWORK');
  }
  if (answer.error !== undefined || !answer.response.ok) {
    const e = toError(answer);
    for (const l of listeners) l(e);
    throw e;
  }
  return answer.data as T;
}

/** `data` of an enveloped answer. */
export async function get<T>(fn: () => Promise<Answer<{ data: T }>>): Promise<T> {
  return (await call(fn)).data;
}

/** Reads a File as base64 (ticket attachments travel as content_base64). */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsDataURL(file);
  });
}
