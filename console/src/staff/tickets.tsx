import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Route, Routes, useParams } from 'react-router';
import { api, call, fileToBase64, get } from '../api/client';
import { Button, Card, ErrorMessage, Loaded, Page, Pager, Select, Status, Table, TextArea, useAction, when } from '../ui/kit';
import { useCan, useStaff } from './access';
import { keys } from '../api/keys';

/**
 * Follows the backoffice ticket stream (Server-Sent Events): any event refreshes the ticket lists
 * and the open conversation, so staff see new tickets and replies without a reload.
 */
function useTicketStream(): boolean {
  const qc = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const source = new EventSource('/api/backoffice/ticket/sse/stream', { withCredentials: true });
    const refresh = () => void qc.invalidateQueries({ queryKey: keys.staff.tickets.all });
    source.onopen = () => setLive(true);
    source.onerror = () => setLive(false);
    source.onmessage = refresh;
    source.addEventListener('reset', refresh);
    return () => source.close();
  }, [qc]);
  return live;
}

const PRIORITIES = ['Low', 'Medium', 'High'] as const;

function TicketList() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const insight = useQuery({ queryKey: keys.staff.tickets.insight, queryFn: () => get(() => api.GET('/api/backoffice/ticket/insight')) });
  const tickets = useQuery({
    queryKey: keys.staff.tickets.page(page, status),
    queryFn: () => call(() => api.GET('/api/backoffice/ticket/', { params: { query: { page, limit: 20, ...(status ? { status: status as 'Open' } : {}) } } })),
  });
  return (
    <>
      {insight.data ? (
        <p className="muted">
          {Object.entries(insight.data)
            .filter(([, v]) => typeof v === 'number')
            .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`)
            .join(' · ')}
        </p>
      ) : null}
      <Select label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }} placeholder="All" options={['Open', 'In Progress', 'Closed', 'Archived'].map((s) => ({ value: s, label: s }))} />
      <Loaded query={tickets}>
        {(r) => (
          <>
            <Table caption="Tickets" head={['#', 'Title', 'Customer', 'Priority', 'Status', 'Assigned', 'Last message']} empty={r.data.length === 0}>
              {r.data.map((t) => (
                <tr key={t.id}>
                  <td>{t.id}</td>
                  <td>
                    <Link to={`/backoffice/tickets/${t.id}`}>{t.title}</Link>
                  </td>
                  <td>{t.customer.full_name}</td>
                  <td>{t.priority}</td>
                  <td>
                    <Status value={t.status} />
                  </td>
                  <td>{t.assigned_admin?.name ?? '—'}</td>
                  <td>{when(t.last_message_at)}</td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </>
  );
}

function TicketDetail() {
  const id = Number(useParams().id);
  const can = useCan();
  const me = useStaff().data;
  const conv = useQuery({
    queryKey: keys.staff.tickets.one(id),
    queryFn: async () => {
      const [ticket, messages] = await Promise.all([
        get(() => api.GET('/api/backoffice/ticket/{id}', { params: { path: { id } } })),
        get(() => api.GET('/api/backoffice/ticket/{id}/conversations', { params: { path: { id } } })),
      ]);
      return { ticket, messages };
    },
  });
  const admins = useQuery({ queryKey: keys.staff.admins.every, queryFn: () => get(() => api.GET('/api/backoffice/admin', { params: { query: { limit: 100 } } })), enabled: can('GET /api/backoffice/admin') });
  const invalidate = [keys.staff.tickets.all];
  const path = { params: { path: { id } } };
  const reply = useAction(
    async (form: HTMLFormElement) => {
      const message = String(new FormData(form).get('message') ?? '');
      const files = Array.from((form.elements.namedItem('files') as HTMLInputElement).files ?? []);
      const attachments = await Promise.all(files.map(async (f) => ({ filename: f.name, content_type: f.type || 'application/octet-stream', content_base64: await fileToBase64(f) })));
      await get(() => api.POST('/api/backoffice/ticket/{id}/reply', { ...path, body: { message, ...(attachments.length ? { attachments } : {}) } }));
      form.reset();
    },
    { invalidate },
  );
  const priority = useAction((p: (typeof PRIORITIES)[number]) => call(() => api.PATCH('/api/backoffice/ticket/{id}/priority', { ...path, body: { priority: p } })), { invalidate });
  const assign = useAction((admin_id: number) => call(() => api.PATCH('/api/backoffice/ticket/{id}/assignment', { ...path, body: { admin_id } })), { invalidate });
  const close = useAction(() => call(() => api.PATCH('/api/backoffice/ticket/{id}/close', path)), { invalidate });
  const archive = useAction(() => call(() => api.PATCH('/api/backoffice/ticket/{id}/archive', path)), { invalidate });
  const manage = can('PATCH /api/backoffice/ticket/{id}/priority');
  return (
    <Loaded query={conv}>
      {({ ticket, messages }) => (
        <Page title={ticket.title}>
          <p>
            <Status value={ticket.status} /> · {ticket.priority} priority · {ticket.customer.full_name} ({ticket.customer.email}) · assigned to {ticket.assigned_admin?.name ?? 'nobody'}
          </p>
          {manage ? (
            <div className="row">
              <Select label="Priority" value={ticket.priority} disabled={priority.isPending} onChange={(e) => priority.mutate(e.target.value as 'Low')} options={PRIORITIES.map((p) => ({ value: p, label: p }))} />
              <Select
                label="Assigned to"
                value={ticket.assigned_admin?.id ?? ''}
                disabled={assign.isPending}
                placeholder="Nobody"
                onChange={(e) => e.target.value && assign.mutate(Number(e.target.value))}
                options={(admins.data ?? (me ? [{ id: me.id, name: me.name }] : [])).map((a) => ({ value: a.id, label: a.name }))}
              />
              <Button kind="secondary" busy={close.isPending} disabled={ticket.status === 'Closed' || ticket.status === 'Archived'} onClick={() => close.mutate(undefined)}>
                Close
              </Button>
              <Button kind="secondary" busy={archive.isPending} disabled={ticket.status === 'Archived'} onClick={() => archive.mutate(undefined)}>
                Archive
              </Button>
            </div>
          ) : null}
          <ErrorMessage error={priority.error ?? assign.error ?? close.error ?? archive.error} />
          <ol className="conversation" aria-label="Conversation">
            {messages.map((m) => (
              <li key={m.id} className={m.sender_type === 'admin' ? 'staff' : ''}>
                <p className="muted">
                  <b>{m.sender.name}</b> ({m.sender_type === 'admin' ? 'staff' : 'customer'}) · {when(m.created_at)}
                </p>
                <p>{m.message}</p>
                {m.attachments.length ? (
                  <ul>
                    {m.attachments.map((a) => (
                      <li key={a.id}>
                        <a href={a.url} download={a.filename}>
                          {a.filename}
                        </a>{' '}
                        <span className="muted">({Math.ceil(a.size_bytes / 1024)} KB)</span>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ol>
          {manage && ticket.status !== 'Closed' && ticket.status !== 'Archived' ? (
            <Card title="Reply">
              <form
                className="form"
                onSubmit={(e) => {
                  e.preventDefault();
                  reply.mutate(e.currentTarget);
                }}
              >
                <TextArea label="Message" name="message" required />
                <div className="field">
                  <label htmlFor="reply-files">Attachments (up to 3)</label>
                  <input id="reply-files" name="files" type="file" multiple accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain,text/csv" />
                </div>
                <ErrorMessage error={reply.error} />
                <Button type="submit" busy={reply.isPending}>
                  Send reply
                </Button>
              </form>
            </Card>
          ) : null}
        </Page>
      )}
    </Loaded>
  );
}

export default function Tickets() {
  const live = useTicketStream();
  return (
    <>
      <p className="muted" role="status">
        {live ? 'Live: new tickets and replies appear as they come.' : 'Connecting to the live ticket stream…'}
      </p>
      <Routes>
        <Route
          index
          element={
            <Page title="Tickets">
              <TicketList />
            </Page>
          }
        />
        <Route path=":id" element={<TicketDetail />} />
      </Routes>
    </>
  );
}
