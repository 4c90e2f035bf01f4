import { useEffect, useId, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from '../api/client';

/** A page: its title in the document and as the one h1. */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Cloud Console`;
  }, [title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-head">
        <h1 id="page-title">{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function Card({ title, children, className }: { title?: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section className={`card ${className ?? ''}`} aria-labelledby={title ? id : undefined}>
      {title ? <h2 id={id}>{title}</h2> : null}
      {children}
    </section>
  );
}

/** A button that is disabled and says so while its action runs. */
export function Button({ busy, children, kind = 'primary', ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean; kind?: 'primary' | 'secondary' | 'danger' | 'link' }) {
  return (
    <button type="button" {...rest} className={`btn btn-${kind} ${rest.className ?? ''}`} disabled={busy || rest.disabled} aria-busy={busy || undefined}>
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** The API's message (and its field errors) for a failed call. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error instanceof ApiError ? error : new ApiError(error instanceof Error ? error.message : String(error), 0, 'ERROR');
  return (
    <div className="error" role="alert">
      <strong>{e.message}</strong>
      {e.errors.length > 0 ? (
        <ul>
          {e.errors.map((f, i) => (
            <li key={i}>
              {f.field ? `${f.field}: ` : ''}
              {f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'success' | 'warning' }) {
  return (
    <div className={`notice notice-${tone}`} role="status">
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

/** What a query shows while loading or failed; `children` once it has data. */
export function Loaded<T>({ query, children }: { query: { data: T | undefined; error: unknown; isPending: boolean }; children: (data: T) => ReactNode }) {
  if (query.error) return <ErrorMessage error={query.error} />;
  if (query.isPending || query.data === undefined) return <Loading />;
  return <>{children(query.data)}</>;
}

export function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string, describedBy?: string) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint ? (
        <small id={hintId} className="muted">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

type InputProps = React.InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string };
export function Input({ label, hint, ...rest }: InputProps) {
  return <Field label={label} hint={hint}>{(id, d) => <input id={id} aria-describedby={d} {...rest} />}</Field>;
}

type SelectProps = React.SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: { value: string | number; label: string }[]; placeholder?: string };
export function Select({ label, options, placeholder, ...rest }: SelectProps) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} {...rest}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function TextArea({ label, ...rest }: React.TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string }) {
  return <Field label={label}>{(id) => <textarea id={id} rows={4} {...rest} />}</Field>;
}

export function Checkbox({ label, ...rest }: React.InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  const id = useId();
  return (
    <div className="check">
      <input id={id} type="checkbox" {...rest} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** A table that scrolls sideways on a narrow screen. */
export function Table({ caption, head, children, empty }: { caption: string; head: ReactNode[]; children: ReactNode; empty?: boolean }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={i} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={head.length} className="muted">
                Nothing here yet.
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

const STATUS_TONE: Record<string, string> = {
  running: 'ok', active: 'ok', paid: 'ok', published: 'ok', open: 'info', applied: 'ok', enabled: 'ok',
  creating: 'busy', pending: 'busy', deleting: 'busy', starting: 'busy', stopping: 'busy', waiting: 'busy', 'in progress': 'busy',
  error: 'bad', failed: 'bad', suspended: 'bad', overdue: 'bad', unpaid: 'warn', expired: 'warn', stopped: 'warn', cancelled: 'warn', closed: 'muted', archived: 'muted', draft: 'muted', deleted: 'muted',
};
export function Status({ value }: { value: string | null | undefined }) {
  const v = value ?? '—';
  return <span className={`badge badge-${STATUS_TONE[v.toLowerCase()] ?? 'muted'}`}>{v}</span>;
}

export function money(value: number | string | null | undefined, currency = 'IDR'): string {
  if (value === null || value === undefined || value === '') return '—';
  const n = typeof value === 'string' ? Number(value) : value;
  return `${currency} ${n.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 6 })}`;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

/** A mutation that turns into busy/disabled state, shows the API's error and refreshes `invalidate`. */
export function useAction<A, R>(fn: (arg: A) => Promise<R>, opts: { invalidate?: QueryKey[]; onSuccess?: (r: R, arg: A) => void } = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (r, arg) => {
      await Promise.all((opts.invalidate ?? []).map((queryKey) => qc.invalidateQueries({ queryKey })));
      opts.onSuccess?.(r, arg);
    },
  });
}

/** A button that asks once more before it acts. */
export function ConfirmButton({ label, confirm, onConfirm, busy, kind = 'danger', disabled }: { label: string; confirm: string; onConfirm: () => void; busy?: boolean; kind?: 'danger' | 'secondary' | 'primary'; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <Button kind={kind === 'danger' ? 'secondary' : kind} busy={busy} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </Button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={confirm}>
      <span>{confirm}</span>
      <Button
        kind={kind}
        busy={busy}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {label.toLowerCase()}
      </Button>
      <Button kind="secondary" onClick={() => setAsking(false)}>
        No
      </Button>
    </span>
  );
}

/** Copies a text (a secret key) to the clipboard and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <Button
      kind="secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setDone(true), () => setDone(false));
      }}
    >
      {done ? 'Copied' : label}
    </Button>
  );
}

/** Reads a form's fields as strings (empty fields are left out). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  new FormData(form).forEach((v, k) => {
    if (typeof v === 'string' && v !== '') out[k] = v;
  });
  return out;
}

export function Pager({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (p: number) => void }) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <Button kind="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        Page {page} of {totalPages}
      </span>
      <Button kind="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
