import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { api, call, fileToBase64, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, Input, Loaded, Page, Pager, Select, Status, Table, TextArea, useAction, when } from '../ui/kit';
import { keys } from '../api/keys';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain,text/csv';

async function attachmentsOf(form: HTMLFormElement) {
  const files = Array.from((form.elements.namedItem('files') as HTMLInputElement).files ?? []);
  return Promise.all(files.map(async (f) => ({ filename: f.name, content_type: f.type || 'application/octet-stream', content_base64: await fileToBase64(f) })));
}

function FilesField() {
  return (
    <div className="field">
      <label htmlFor="ticket-files">Attachments (optional, up to 3 files of 2 MB: images, PDF, text, CSV)</label>
      <input id="ticket-files" name="files" type="file" multiple accept={ACCEPT} />
    </div>
  );
}

function TicketList() {
  const [page, setPage] = useState(1);
  const tickets = useQuery({ queryKey: keys.tickets.page(page), queryFn: () => call(() => api.GET('/api/ticket/', { params: { query: { page, limit: 20 } } })), refetchInterval: 30_000 });
  return (
    <Page title="Support tickets" actions={<Link className="btn btn-primary" to="/tickets/new">Open a ticket</Link>}>
      <Loaded query={tickets}>
        {(r) => (
          <>
            <Table caption="Tickets" head={['Title', 'Status', 'Priority', 'Last message']} empty={r.data.length === 0}>
              {r.data.map((t) => (
                <tr key={t.id}>
                  <td>
                    <Link to={`/tickets/${t.id}`}>{t.title}</Link>
                  </td>
                  <td>
                    <Status value={t.status} />
                  </td>
                  <td>{t.priority}</td>
                  <td>{when(t.last_message_at)}</td>
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

function NewTicket() {
  const navigate = useNavigate();
  const open = useAction(
    async (form: HTMLFormElement) => {
      const fd = new FormData(form);
      const attachments = await attachmentsOf(form);
      return get(() =>
        api.POST('/api/ticket/', {
          body: { title: String(fd.get('title')), message: String(fd.get('message')), priority: String(fd.get('priority')) as 'Medium', ...(attachments.length ? { attachments } : {}) },
        }),
      );
    },
    { invalidate: [keys.tickets.all], onSuccess: (t) => navigate(`/tickets/${t.id}`) },
  );
  return (
    <Page title="Open a ticket">
      <Card>
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            open.mutate(e.currentTarget);
          }}
        >
          <Input label="Title" name="title" required maxLength={200} />
          <Select label="Priority" name="priority" defaultValue="Medium" options={['Low', 'Medium', 'High'].map((p) => ({ value: p, label: p }))} />
          <TextArea label="Message" name="message" required />
          <FilesField />
          <ErrorMessage error={open.error} />
          <Button type="submit" busy={open.isPending}>
            Open the ticket
          </Button>
        </form>
      </Card>
    </Page>
  );
}

function TicketDetail() {
  const id = Number(useParams().id);
  const ticket = useQuery({ queryKey: keys.tickets.one(id), queryFn: () => get(() => api.GET('/api/ticket/{id}', { params: { path: { id } } })), refetchInterval: 5_000 });
  const reply = useAction(
    async (form: HTMLFormElement) => {
      const attachments = await attachmentsOf(form);
      await get(() => api.POST('/api/ticket/{id}/reply', { params: { path: { id } }, body: { message: String(new FormData(form).get('message')), ...(attachments.length ? { attachments } : {}) } }));
      form.reset();
    },
    { invalidate: [keys.tickets.all] },
  );
  const close = useAction(() => call(() => api.PATCH('/api/ticket/{id}/close', { params: { path: { id } } })), { invalidate: [keys.tickets.all] });
  return (
    <Loaded query={ticket}>
      {(t) => (
        <Page
          title={t.title}
          actions={t.status !== 'Closed' && t.status !== 'Archived' ? <ConfirmButton label="Close" kind="secondary" confirm="Close this ticket?" busy={close.isPending} onConfirm={() => close.mutate(undefined)} /> : null}
        >
          <p>
            <Status value={t.status} /> · {t.priority} priority · opened {when(t.created_at)}
          </p>
          <ErrorMessage error={close.error} />
          <ol className="conversation" aria-label="Conversation">
            {t.messages.map((m) => (
              <li key={m.id} className={m.sender_type === 'admin' ? 'staff' : ''}>
                <p className="muted">
                  <b>{m.sender_type === 'admin' ? `${m.sender.name} (support)` : 'You'}</b> · {when(m.created_at)}
                </p>
                <p>{m.message}</p>
                {m.attachments.length ? (
                  <ul>
                    {m.attachments.map((a) => (
                      <li key={a.id}>
                        <a href={a.url} download={a.filename}>
                          {a.filename}
                        </a>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ol>
          {t.status !== 'Closed' && t.status !== 'Archived' ? (
            <Card title="Reply">
              <form
                className="form"
                onSubmit={(e) => {
                  e.preventDefault();
                  reply.mutate(e.currentTarget);
                }}
              >
                <TextArea label="Message" name="message" required />
                <FilesField />
                <ErrorMessage error={reply.error} />
                <Button type="submit" busy={reply.isPending}>
                  Send
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
  return (
    <Routes>
      <Route index element={<TicketList />} />
      <Route path="new" element={<NewTicket />} />
      <Route path=":id" element={<TicketDetail />} />
    </Routes>
  );
}
