import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../../api/client';
import type { paths } from '../../api/schema';
import { Button, Card, ConfirmButton, CopyButton, ErrorMessage, formValues, Input, Loaded, Notice, Pager, Select, Status, Table, useAction, when } from '../../ui/kit';
import { useMe } from './me';
import { keys } from '../../api/keys';

type Scope = paths['/api/tokens']['post']['requestBody']['content']['application/json']['scopes'][number];

/** What each scope family reaches, in the words of the token's owner. */
const FAMILIES: { family: string; label: string }[] = [
  { family: 'account', label: 'Account and profile' },
  { family: 'billing', label: 'Billing' },
  { family: 'compute', label: 'Virtual machines and SSH keys' },
  { family: 'network', label: 'Networks, security groups and load balancers' },
  { family: 'storage', label: 'Object storage' },
  { family: 'tickets', label: 'Support tickets' },
  { family: 'webhooks', label: 'Webhooks' },
];
const ACCESS = [
  { value: 'read', label: 'Read' },
  { value: '*', label: 'Read and change' },
];
const LIFETIMES = [7, 30, 90, 365];

/** "compute:*" → "Virtual machines and SSH keys: read and change". */
function scopeLabel(scope: string): string {
  const [family, access] = scope.split(':');
  const area = FAMILIES.find((f) => f.family === family)?.label ?? family;
  return `${area}: ${access === '*' ? 'read and change' : access === 'write' ? 'change' : 'read'}`;
}

/** A new token: the password (and the current code with 2FA on) buys the sudo token the API asks for. */
function NewToken({ onCreated }: { onCreated: (t: { name: string; token: string }) => void }) {
  const on = useMe().data?.is_2fa_active ?? false;
  const [open, setOpen] = useState(false);
  const create = useAction(
    async (v: Record<string, string>) => {
      const scopes = FAMILIES.flatMap(({ family }) => (v[family] ? [`${family}:${v[family]}` as Scope] : []));
      if (scopes.length === 0) throw new Error('Give the token access to at least one area.');
      const sudo = await get(() => api.POST('/api/auth/profile/sudo', { body: { password: v.password ?? '', ...(v.code ? { code: v.code } : {}) } }));
      return get(() =>
        api.POST('/api/tokens', {
          params: { header: { 'x-access-token': sudo.token } },
          body: { name: v.name ?? '', scopes, expires_in_days: Number(v.expires_in_days) },
        }),
      );
    },
    {
      invalidate: [keys.apiTokens.all],
      onSuccess: (r) => {
        setOpen(false);
        onCreated({ name: r.name, token: r.token });
      },
    },
  );
  if (!open) {
    return (
      <Button kind="secondary" onClick={() => setOpen(true)}>
        Create a token
      </Button>
    );
  }
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(formValues(e.currentTarget));
      }}
    >
      <Input label="Token name" name="name" hint="Where it is used, such as “deploy pipeline”" maxLength={64} required />
      {FAMILIES.map(({ family, label }) => (
        <Select key={family} label={label} name={family} placeholder="No access" options={ACCESS} />
      ))}
      <Select label="Expires after" name="expires_in_days" defaultValue="90" options={LIFETIMES.map((d) => ({ value: String(d), label: `${d} days` }))} />
      <p className="muted">Confirm it is you to create a token.</p>
      <Input label="Your password" name="password" type="password" autoComplete="current-password" required />
      {on ? <Input label="Current 6-digit code" name="code" inputMode="numeric" autoComplete="one-time-code" required /> : null}
      <ErrorMessage error={create.error} />
      <div className="row">
        <Button type="submit" busy={create.isPending}>
          Create token
        </Button>
        <Button kind="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Personal API tokens: the list, one revoke per token, and "revoke all" for when one may have leaked. */
export function ApiTokens() {
  const [page, setPage] = useState(1);
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const tokens = useQuery({ queryKey: keys.apiTokens.page(page), queryFn: () => call(() => api.GET('/api/tokens', { params: { query: { page, limit: 20 } } })) });
  const revoke = useAction((id: number) => get(() => api.DELETE('/api/tokens/{id}', { params: { path: { id } } })), { invalidate: [keys.apiTokens.all] });
  const revokeAll = useAction(() => get(() => api.POST('/api/tokens/revoke-all')), { invalidate: [keys.apiTokens.all], onSuccess: () => setCreated(undefined) });
  return (
    <Card title="API tokens">
      <p className="muted">Scripts and tools use a token instead of your password. We e-mail you whenever a token is created.</p>
      {created ? (
        <Notice tone="warning">
          <p>
            <b>{created.name}</b>: copy the token now, it is not shown again.
          </p>
          <p className="secret">{created.token}</p>
          <CopyButton text={created.token} label="Copy the token" />
        </Notice>
      ) : null}
      {revokeAll.isSuccess ? (
        <p role="status">{revokeAll.data.revoked === 1 ? '1 token revoked.' : `${revokeAll.data.revoked} tokens revoked.`} Scripts that used them are refused from now on.</p>
      ) : null}
      <ErrorMessage error={revoke.error ?? revokeAll.error} />
      <Loaded query={tokens}>
        {(r) => (
          <>
            <Table caption="Your tokens" head={['Name', 'Access', 'State', 'Expires', 'Last used', '']} empty={r.data.length === 0}>
              {r.data.map((t) => (
                <tr key={t.id}>
                  <td>
                    {t.name} <span className="muted">{t.prefix}…</span>
                  </td>
                  <td>{t.scopes.map(scopeLabel).join('; ')}</td>
                  <td>
                    <Status value={t.state === 'active' ? 'Active' : t.state === 'expired' ? 'Expired' : 'Revoked'} />
                  </td>
                  <td>{when(t.expires_at)}</td>
                  <td>{t.last_used_at ? `${when(t.last_used_at)}${t.last_used_ip ? ` from ${t.last_used_ip}` : ''}` : 'Never'}</td>
                  <td>
                    {t.state === 'active' ? (
                      <ConfirmButton label="Revoke" confirm={`Revoke “${t.name}”?`} busy={revoke.isPending && revoke.variables === t.id} onConfirm={() => revoke.mutate(t.id)} />
                    ) : null}
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
      <div className="row">
        <NewToken onCreated={setCreated} />
        <ConfirmButton label="Revoke all tokens" confirm="Revoke every active token? Scripts that use them stop at once." busy={revokeAll.isPending} onConfirm={() => revokeAll.mutate(undefined)} />
      </div>
    </Card>
  );
}
