import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { Button, Card, ErrorMessage, Loaded, Page, Pager, useAction, when } from '../ui/kit';
import { keys } from '../api/keys';

function Feed({ kind }: { kind: 'announcements' | 'release-notes' }) {
  const [page, setPage] = useState(1);
  const feed = useQuery({
    queryKey: keys.feed(kind, page),
    queryFn: () => call(() => (kind === 'announcements' ? api.GET('/api/announcements', { params: { query: { page, limit: 5 } } }) : api.GET('/api/release-notes', { params: { query: { page, limit: 5 } } }))),
  });
  return (
    <Card title={kind === 'announcements' ? 'Announcements' : 'Release notes'}>
      <Loaded query={feed}>
        {(r) => (
          <>
            {r.data.length === 0 ? <p className="muted">Nothing here yet.</p> : null}
            {r.data.map((a) => (
              <article key={a.id}>
                <h3>{a.title}</h3>
                <p className="muted">{when(a.published_at)}</p>
                <p>{a.message}</p>
              </article>
            ))}
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Card>
  );
}

function Notifications() {
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: keys.notifications.page(page), queryFn: () => call(() => api.GET('/api/notifications/', { params: { query: { page, limit: 20 } } })) });
  const invalidate = [keys.notifications.all, keys.me];
  const read = useAction((id: number) => call(() => api.PATCH('/api/notifications/{id}/read', { params: { path: { id } } })), { invalidate });
  const readAll = useAction(() => call(() => api.PATCH('/api/notifications/read-all')), { invalidate });
  return (
    <Page
      title="Notifications"
      actions={
        <Button kind="secondary" busy={readAll.isPending} onClick={() => readAll.mutate(undefined)}>
          Mark all as read
        </Button>
      }
    >
      <ErrorMessage error={read.error ?? readAll.error} />
      <Loaded query={list}>
        {(r) => (
          <>
            {r.data.length === 0 ? <p className="muted">No notifications.</p> : null}
            <ul className="conversation">
              {r.data.map((n) => (
                <li key={n.id} className={n.is_read ? '' : 'staff'}>
                  <p>
                    <b>{n.title}</b> <span className="muted">· {when(n.created_at)}</span>
                  </p>
                  <p>{n.body}</p>
                  {n.reference_type === 'topup_invoice' && n.reference_id ? (
                    <p>
                      <a href={`/api/billing/invoice/${encodeURIComponent(n.reference_id)}/download`} download>
                        {n.kind === 'TOPUP_CREDITED' ? 'Download the receipt (PDF)' : 'Download the invoice (PDF)'}
                      </a>
                    </p>
                  ) : null}
                  {!n.is_read ? (
                    <Button kind="link" busy={read.isPending && read.variables === n.id} onClick={() => read.mutate(n.id)}>
                      Mark as read
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Page>
  );
}

export default function News({ notifications }: { notifications?: boolean }) {
  if (notifications) return <Notifications />;
  return (
    <Page title="News">
      <Feed kind="announcements" />
      <Feed kind="release-notes" />
    </Page>
  );
}
