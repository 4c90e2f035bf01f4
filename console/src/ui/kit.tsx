import { useEffect, useId, useLayoutEffect, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
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

const WORDS: Record<string, string> = { id: 'ID', ids: 'IDs', vm: 'VM', vms: 'VMs', ip: 'IP', ips: 'IPs', cidr: 'CIDR', url: 'URL', cpu: 'CPU', os: 'OS', ssh: 'SSH', dns: 'DNS' };

/**
 * An API field name as the person reads it: the label of the form control of that name when the
 * page has one ("Target VMs"), else the name in words ("target_vm_ids" → "Target VM IDs";
 * "forwarding_rules.0.entry_port" → "Forwarding rules 1: entry port").
 */
export function fieldLabel(field: string): string {
  const top = field.split('.')[0] ?? field;
  if (typeof document !== 'undefined') {
    for (const name of [field, top]) {
      const el = document.querySelector<HTMLInputElement>(`[name="${CSS.escape(name)}"]`);
      const label = el?.labels?.[0]?.textContent?.trim() ?? el?.querySelector(':scope > legend')?.textContent?.trim() ?? el?.getAttribute('aria-label');
      if (label) return label;
    }
  }
  const words = (part: string) => part.split('_').map((w) => WORDS[w] ?? w).join(' ');
  const parts = field.split('.').map((p) => (/^\d+$/.test(p) ? String(Number(p) + 1) : words(p)));
  const text = parts.reduce((acc, p, i) => (i === 0 ? p : /^\d+$/.test(p) ? `${acc} ${p}` : `${acc}: ${p}`), '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The API's message (and its field errors, named as the form names them) for a failed call. */
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
              {f.field && f.field !== 'body' ? `${fieldLabel(f.field)}: ` : ''}
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
  running: 'ok', available: 'ok', active: 'ok', paid: 'ok', published: 'ok', open: 'info', applied: 'ok', enabled: 'ok',
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

/**
 * Money as people write it, from the number's decimal text (no float arithmetic): rounded half-up
 * to `places`, thousands grouped, cents only when there are some ("IDR 61.64", "IDR 45,000").
 */
export function moneyText(value: number | string | null | undefined, currency = 'IDR', places = 2): string {
  if (value === null || value === undefined || value === '') return '—';
  let text = String(value).trim();
  if (/e/i.test(text)) text = Number(text).toFixed(places);
  const negative = text.startsWith('-');
  const [whole = '0', frac = ''] = text.replace(/^[-+]/, '').split('.');
  let digits = (whole + frac.padEnd(places, '0').slice(0, places)).replace(/^0+(?=\d)/, '');
  if (Number(frac[places] ?? '0') >= 5) {
    // add one in the last kept place, carrying through the digits
    const arr = digits.split('').map(Number);
    let i = arr.length - 1;
    while (i >= 0 && arr[i] === 9) arr[i--] = 0;
    if (i < 0) arr.unshift(1);
    else arr[i]! += 1;
    digits = arr.join('');
  }
  digits = digits.padStart(places + 1, '0');
  const int = digits.slice(0, digits.length - places).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = digits.slice(digits.length - places);
  const zero = /^[0,]*$/.test(int) && /^0*$/.test(cents);
  return `${negative && !zero ? '-' : ''}${currency} ${int}${/^0*$/.test(cents) ? '' : `.${cents}`}`;
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

/**
 * A button that asks once more before it acts, in a modal alert dialog (Radix): the focus moves
 * into it (onto "No", the safe answer), stays there until it closes, and returns to the button.
 * No overlay element: Radix's overlay locks scrolling with an inline <style>, which the console's
 * content security policy refuses; the backdrop is the dialog's own shadow.
 */
export function ConfirmButton({ label, confirm, onConfirm, busy, kind = 'danger', disabled }: { label: string; confirm: string; onConfirm: () => void; busy?: boolean; kind?: 'danger' | 'secondary' | 'primary'; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  // Radix hides the app from screen readers (aria-hidden) while the dialog is open; `inert` also
  // takes its controls out of reach, so nothing hidden stays focusable (axe's aria-hidden-focus).
  // A layout effect: the app is live again before Radix gives the focus back to the button.
  useLayoutEffect(() => {
    const app = document.getElementById('root');
    if (!open || !app) return;
    app.inert = true;
    return () => {
      app.inert = false;
    };
  }, [open]);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        <Button kind={kind === 'danger' ? 'secondary' : kind} busy={busy} disabled={disabled}>
          {label}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">{label}</AlertDialog.Title>
          <AlertDialog.Description>{confirm}</AlertDialog.Description>
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <Button kind="secondary">No</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button kind={kind} onClick={onConfirm}>
                Yes, {label.toLowerCase()}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
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
