import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { Button, formValues, Input, Loaded, Page, Pager, Table, when } from '../ui/kit';
import { keys } from '../api/keys';

export default function Audit() {
  const [page, setPage] = useState(1);
  const [action, setAction] = useState('');
  const logs = useQuery({ queryKey: keys.staff.audit(page, action), queryFn: () => call(() => api.GET('/api/backoffice/audit-logs', { params: { query: { page, limit: 25, ...(action ? { action } : {}) } } })) });
  return (
    <Page title="Audit log">
      <form
        className="inline"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setAction(formValues(e.currentTarget).action ?? '');
          setPage(1);
        }}
      >
        <Input label="Action (e.g. customer.balance_adjusted)" name="action" defaultValue={action} />
        <Button type="submit">Filter</Button>
      </form>
      <Loaded query={logs}>
        {(r) => (
          <>
            <Table caption="Audit log" head={['When', 'Actor', 'Action', 'Target', 'IP', 'Change']} empty={r.data.length === 0}>
              {r.data.map((l) => (
                <tr key={l.id}>
                  <td>{when(l.created_at)}</td>
                  <td>
                    {l.actor_type} {l.actor_id ?? ''}
                    {l.impersonator_admin_id ? ` (impersonated by admin ${l.impersonator_admin_id})` : ''}
                  </td>
                  <td>{l.action}</td>
                  <td>
                    {l.target_type ?? ''} {l.target_id ?? ''}
                  </td>
                  <td>{l.ip ?? '—'}</td>
                  <td>
                    {l.before || l.after ? (
                      <details>
                        <summary>Show</summary>
                        <pre>{JSON.stringify({ before: l.before, after: l.after }, null, 1)}</pre>
                      </details>
                    ) : null}
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Page>
  );
}
