import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../api/client';
import { keys } from '../api/keys';
import { Button, Card, Checkbox, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Page, Pager, Select, Table, useAction, when } from '../ui/kit';
import { useAccounts, useMemberCan } from './shared/accounts';

const ROLE_LABEL: Record<string, string> = { owner: 'Owner', admin: 'Admin', billing: 'Billing', technical: 'Technical', read_only: 'Read-only' };
const ASSIGNABLE = [
  { value: 'admin', label: 'Admin: everything but ownership' },
  { value: 'billing', label: 'Billing: top-ups, invoices, payment methods; no resources' },
  { value: 'technical', label: 'Technical: servers, networks, storage; no money' },
  { value: 'read_only', label: 'Read-only: can look, cannot change' },
];
type Role = 'admin' | 'billing' | 'technical' | 'read_only';

function useMembers() {
  return useQuery({ queryKey: keys.members, queryFn: () => get(() => api.GET('/api/members')) });
}

type MemberList = NonNullable<ReturnType<typeof useMembers>['data']>;

function MemberRow({ m, me, canWrite, isOwner }: { m: MemberList['members'][number]; me: number | undefined; canWrite: boolean; isOwner: boolean }) {
  const path = { params: { path: { customer_id: m.customer_id } } };
  const setRole = useAction((role: Role) => get(() => api.PATCH('/api/members/{customer_id}', { ...path, body: { role } })), { invalidate: [keys.members] });
  const remove = useAction(() => get(() => api.DELETE('/api/members/{customer_id}', path)), { invalidate: [keys.members] });
  const transfer = useAction(() => get(() => api.POST('/api/members/ownership-transfer', { body: { customer_id: m.customer_id } })));
  const name = `${m.first_name} ${m.last_name}`.trim() || m.email;
  const editable = canWrite && m.role !== 'owner';
  return (
    <tr>
      <td>
        {name}
        {m.customer_id === me ? ' (you)' : ''}
        <br />
        <span className="muted">{m.email}</span>
      </td>
      <td>
        {editable ? (
          <Select label={`Role of ${m.email}`} value={m.role} options={ASSIGNABLE.map((o) => ({ value: o.value, label: ROLE_LABEL[o.value]! }))} onChange={(e) => setRole.mutate(e.currentTarget.value as Role)} />
        ) : (
          ROLE_LABEL[m.role]
        )}
        <ErrorMessage error={setRole.error} />
      </td>
      <td>{m.two_factor_enabled ? 'On' : 'Off'}</td>
      <td>{when(m.joined_at)}</td>
      <td>
        <div className="row">
          {editable ? (
            <ConfirmButton
              label={`Remove ${m.email}`}
              confirm={`${name} loses access to this account at once: their sessions here end and their API tokens for it stop working.`}
              busy={remove.isPending}
              onConfirm={() => remove.mutate(undefined)}
            />
          ) : null}
          {isOwner && m.role !== 'owner' ? (
            <ConfirmButton kind="secondary" label={`Make ${m.email} the owner`} confirm="We mail you a link to confirm. You stay as an admin." busy={transfer.isPending} onConfirm={() => transfer.mutate(undefined)} />
          ) : null}
        </div>
        {transfer.isSuccess ? <p role="status">Check your mail to confirm the transfer.</p> : null}
        <ErrorMessage error={remove.error ?? transfer.error} />
      </td>
    </tr>
  );
}

function Invitations({ list, canWrite }: { list: MemberList; canWrite: boolean }) {
  const [formKey, setFormKey] = useState(0);
  const invite = useAction((body: { email: string; role: Role }) => get(() => api.POST('/api/members/invitations', { body })), { invalidate: [keys.members], onSuccess: () => setFormKey((n) => n + 1) });
  const withdraw = useAction((id: number) => call(() => api.DELETE('/api/members/invitations/{id}', { params: { path: { id } } })), { invalidate: [keys.members] });
  return (
    <Card title="Invitations">
      <Table caption="Open invitations" head={['Address', 'Role', 'Expires', 'Actions']} empty={list.invitations.length === 0}>
        {list.invitations.map((i) => (
          <tr key={i.id}>
            <td>{i.email}</td>
            <td>{ROLE_LABEL[i.role]}</td>
            <td>{when(i.expires_at)}</td>
            <td>{canWrite ? <Button kind="secondary" aria-label={`Withdraw the invitation to ${i.email}`} onClick={() => withdraw.mutate(i.id)}>Withdraw</Button> : null}</td>
          </tr>
        ))}
      </Table>
      <ErrorMessage error={withdraw.error} />
      {canWrite ? (
        <form
          key={formKey}
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            invite.mutate({ email: v.email ?? '', role: (v.role ?? 'read_only') as Role });
          }}
        >
          <Input label="E-mail address" name="email" type="email" required maxLength={254} hint="We mail them a link that works once, for 7 days." />
          <Select label="Role" name="role" defaultValue="technical" options={ASSIGNABLE} />
          <ErrorMessage error={invite.error} />
          {invite.isSuccess ? <p role="status">Invitation sent to {invite.data.email}.</p> : null}
          <Button type="submit" busy={invite.isPending}>
            Invite
          </Button>
        </form>
      ) : null}
    </Card>
  );
}

function Rules({ on }: { on: boolean }) {
  const save = useAction((require_2fa: boolean) => get(() => api.PATCH('/api/members/settings', { body: { require_2fa } })), { invalidate: [keys.members] });
  return (
    <Card title="Rules for members">
      <Checkbox label="Every member must use two-factor authentication" checked={on} disabled={save.isPending} onChange={(e) => save.mutate(e.currentTarget.checked)} />
      <ErrorMessage error={save.error} />
    </Card>
  );
}

/** Team events in plain words (the code stays beside them); other entries show their code. */
const ACTION_WORDS: Record<string, string> = {
  'member.switched_in': 'Switched to this account',
  'member.left': 'Left the account',
  'member.joined': 'Joined the account',
  'member.removed': 'Removed a member',
  'member.role_changed': "Changed a member's role",
  'member.invited': 'Invited someone',
  'account.closed': 'Closed the account',
};

function Activity() {
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: keys.activity(page), queryFn: () => call(() => api.GET('/api/activity', { params: { query: { page, limit: 20 } } })) });
  return (
    <Card title="Activity: who did what">
      <Loaded query={list}>
        {(res) => (
          <>
            <Table caption="Account activity" head={['When', 'Who', 'What', 'On']} empty={res.data.length === 0}>
              {res.data.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.created_at)}</td>
                  <td>
                    {e.by.email ?? '—'}
                    {e.impersonated ? ' (staff)' : ''}
                  </td>
                  <td>{ACTION_WORDS[e.action] ? `${ACTION_WORDS[e.action]} (${e.action})` : e.action}</td>
                  <td>{e.target_type ? `${e.target_type} ${e.target_id ?? ''}` : ''}</td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={res.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Card>
  );
}

/** The team of the account acted on: members and roles, invitations, the owner's rules, the activity log. */
export default function Team() {
  const list = useMembers();
  const can = useMemberCan();
  const accounts = useAccounts().data;
  const current = accounts?.find((a) => a.current);
  const me = accounts?.find((a) => a.own)?.account_id;
  const canWrite = can('PATCH /api/members/{customer_id}');
  return (
    <Page title="Team">
      <p className="muted">People who work in this account. Money stays with the account: one wallet, one set of invoices and limits.</p>
      <Loaded query={list}>
        {(l) => (
          <>
            <Table caption="Members" head={['Member', 'Role', '2FA', 'Joined', 'Actions']}>
              {l.members.map((m) => (
                <MemberRow key={m.customer_id} m={m} me={me} canWrite={canWrite} isOwner={current?.role === 'owner'} />
              ))}
            </Table>
            <Invitations list={l} canWrite={canWrite} />
            {can('PATCH /api/members/settings') ? <Rules on={l.require_2fa} /> : null}
          </>
        )}
      </Loaded>
      {can('GET /api/activity') ? <Activity /> : null}
    </Page>
  );
}
