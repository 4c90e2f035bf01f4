import { useState } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { api, call, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Notice, Page, Pager, Select, Status, Table, useAction, when } from '../ui/kit';
import { useCan } from './access';
import { keys } from '../api/keys';

function AdminList() {
  const can = useCan();
  const [page, setPage] = useState(1);
  const admins = useQuery({ queryKey: keys.staff.admins.page(page), queryFn: () => call(() => api.GET('/api/backoffice/admin', { params: { query: { page, limit: 20 } } })) });
  const roles = useQuery({ queryKey: keys.staff.roles, queryFn: () => get(() => api.GET('/api/backoffice/admin/roles')), enabled: can('GET /api/backoffice/admin/roles') });
  const [linked, setLinked] = useState<{ email: string; until: string }>();
  const mailed = (r: { email: string; set_password_link_expires_at: string }) => setLinked({ email: r.email, until: r.set_password_link_expires_at });
  const create = useAction((body: { name: string; email: string; role: string }) => get(() => api.POST('/api/backoffice/admin', { body })), { invalidate: [keys.staff.admins.all, keys.staff.roles], onSuccess: mailed });
  const act = useAction(
    async ({ id, action, role }: { id: number; action: 'delete' | 'restore' | 'reset' | 'role'; role?: string }): Promise<unknown> => {
      const path = { params: { path: { id } } };
      if (action === 'delete') return call(() => api.DELETE('/api/backoffice/admin/{id}/delete', path));
      if (action === 'restore') return call(() => api.POST('/api/backoffice/admin/{id}/restore', path));
      if (action === 'role') return call(() => api.PATCH('/api/backoffice/admin/{id}/update-role', { ...path, body: { role: role ?? '' } }));
      return get(() => api.POST('/api/backoffice/admin/{id}/reset-password', path)).then(mailed);
    },
    // member counts on the roles change with every add, role change, delete and restore
    { invalidate: [keys.staff.admins.all, keys.staff.roles] },
  );
  const roleOptions = (roles.data ?? []).map((r) => ({ value: r.name, label: r.name }));
  return (
    <Card title="Admins">
      {linked ? (
        <Notice tone="success">
          A link to choose the password was e-mailed to {linked.email}. It works once, until {when(linked.until)}.
        </Notice>
      ) : null}
      <ErrorMessage error={act.error ?? create.error} />
      <Loaded query={admins}>
        {(r) => (
          <>
            <Table caption="Admins" head={['Name', 'E-mail', 'Role', 'Last login', 'Status', '']} empty={r.data.length === 0}>
              {r.data.map((a) => (
                <tr key={a.id}>
                  <td>{a.name}</td>
                  <td>{a.email}</td>
                  <td>
                    {can('PATCH /api/backoffice/admin/{id}/update-role') && roleOptions.length ? (
                      <Select label={`Role of ${a.name}`} value={a.role} disabled={act.isPending} onChange={(e) => act.mutate({ id: a.id, action: 'role', role: e.target.value })} options={roleOptions} />
                    ) : (
                      a.role
                    )}
                  </td>
                  <td>{when(a.last_login_at)}</td>
                  <td>
                    <Status value={a.is_deleted ? 'Deleted' : 'Active'} />
                  </td>
                  <td className="row">
                    {a.is_deleted ? (
                      <Button kind="secondary" onClick={() => act.mutate({ id: a.id, action: 'restore' })}>
                        Restore
                      </Button>
                    ) : (
                      <>
                        <ConfirmButton label="Reset password" kind="secondary" confirm="End their sessions and e-mail them a link to choose a new password?" onConfirm={() => act.mutate({ id: a.id, action: 'reset' })} />
                        <ConfirmButton label="Delete" confirm="Suspend this admin?" onConfirm={() => act.mutate({ id: a.id, action: 'delete' })} />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
      {can('POST /api/backoffice/admin') ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            create.mutate({ name: v.name ?? '', email: v.email ?? '', role: v.role ?? '' });
          }}
        >
          <Input label="Name" name="name" required />
          <Input label="E-mail" name="email" type="email" required />
          <Select label="Role" name="role" options={roleOptions} />
          <Button type="submit" busy={create.isPending}>
            Add admin
          </Button>
        </form>
      ) : null}
    </Card>
  );
}

/** Roles × permissions: what each role may do; Super Admin may change the unlocked ones. */
function PermissionMatrix() {
  const can = useCan();
  const roles = useQuery({ queryKey: keys.staff.roles, queryFn: () => get(() => api.GET('/api/backoffice/admin/roles')) });
  const perRole = useQueries({
    queries: (roles.data ?? []).map((r) => ({
      queryKey: keys.staff.rolePermissions.of(r.name),
      queryFn: () => get(() => api.GET('/api/backoffice/admin/roles/{role_name}/permissions', { params: { path: { role_name: r.name } } })),
    })),
  });
  const sync = useAction(
    ({ role, permissions }: { role: string; permissions: string[] }) => call(() => api.POST('/api/backoffice/admin/roles/{role_name}/permissions', { params: { path: { role_name: role } }, body: { permissions } })),
    { invalidate: [keys.staff.rolePermissions.all, keys.staff.roles] },
  );
  const editable = can('POST /api/backoffice/admin/roles/{role_name}/permissions');
  const catalog = perRole[0]?.data ?? [];
  return (
    <Card title="Roles and permissions">
      <ErrorMessage error={sync.error} />
      <Loaded query={roles}>
        {(rs) => (
          <Table caption="Permission matrix" head={['Permission', ...rs.map((r) => `${r.name} (${r.admin_count})`)]} empty={catalog.length === 0}>
            {catalog.map((p) => (
              <tr key={p.name}>
                <th scope="row">
                  {p.name}
                  <br />
                  <small className="muted">{p.description}</small>
                </th>
                {rs.map((r, i) => {
                  const list = perRole[i]?.data ?? [];
                  const assigned = list.find((x) => x.name === p.name)?.assigned ?? false;
                  return (
                    <td key={r.name}>
                      <input
                        type="checkbox"
                        aria-label={`${r.name}: ${p.name}`}
                        checked={assigned}
                        disabled={!editable || r.is_locked || sync.isPending}
                        onChange={(e) =>
                          sync.mutate({ role: r.name, permissions: list.filter((x) => (x.name === p.name ? e.target.checked : x.assigned)).map((x) => x.name) })
                        }
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </Card>
  );
}

export default function Admins() {
  const can = useCan();
  return (
    <Page title="Admins and roles">
      <AdminList />
      {can('GET /api/backoffice/admin/roles') ? <PermissionMatrix /> : null}
    </Page>
  );
}
