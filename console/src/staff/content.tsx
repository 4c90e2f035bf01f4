import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Page, Pager, Status, Table, TextArea, useAction, when } from '../ui/kit';
import { keys } from '../api/keys';

// Announcements and release notes have the same API under two prefixes.
type Kind = 'announcements' | 'release-notes';
const P = (kind: Kind) => `/api/backoffice/${kind}/` as '/api/backoffice/announcements/';
const ONE = (kind: Kind) => `/api/backoffice/${kind}/{id}` as '/api/backoffice/announcements/{id}';

function Documents({ kind, title }: { kind: Kind; title: string }) {
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ id?: number; title: string; message: string }>();
    const docs = useQuery({ queryKey: keys.staff.content.page(kind, page), queryFn: () => call(() => api.GET(P(kind), { params: { query: { page, limit: 10 } } })) });
  const save = useAction(
    (d: { id?: number; title: string; message: string }) =>
      d.id ? get(() => api.PUT(ONE(kind), { params: { path: { id: d.id! } }, body: { title: d.title, message: d.message } })) : get(() => api.POST(P(kind), { body: { title: d.title, message: d.message } })),
    { invalidate: [keys.staff.content.all(kind)], onSuccess: () => setEditing(undefined) },
  );
  const act = useAction(
    ({ id, action }: { id: number; action: 'publish' | 'unpublish' | 'delete' }) => {
      const path = { params: { path: { id } } };
      if (action === 'delete') return call(() => api.DELETE(ONE(kind), path));
      return call(() => api.POST(`/api/backoffice/${kind}/{id}/${action}` as '/api/backoffice/announcements/{id}/publish', path));
    },
    { invalidate: [keys.staff.content.all(kind)] },
  );
  return (
    <Card title={title}>
      <Button kind="secondary" onClick={() => setEditing({ title: '', message: '' })}>
        New
      </Button>
      {editing ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            save.mutate({ ...(editing.id ? { id: editing.id } : {}), title: v.title ?? '', message: v.message ?? '' });
          }}
        >
          <Input label="Title" name="title" defaultValue={editing.title} required />
          <TextArea label="Message" name="message" defaultValue={editing.message} required />
          <ErrorMessage error={save.error} />
          <div className="row">
            <Button type="submit" busy={save.isPending}>
              {editing.id ? 'Save' : 'Create draft'}
            </Button>
            <Button kind="secondary" onClick={() => setEditing(undefined)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      <ErrorMessage error={act.error} />
      <Loaded query={docs}>
        {(r) => (
          <>
            <Table caption={title} head={['Title', 'Status', 'Published', '']} empty={r.data.length === 0}>
              {r.data.map((d) => (
                <tr key={d.id}>
                  <td>{d.title}</td>
                  <td>
                    <Status value={d.status} />
                  </td>
                  <td>{when(d.published_at)}</td>
                  <td className="row">
                    <Button kind="secondary" onClick={() => setEditing({ id: d.id, title: d.title, message: d.message })}>
                      Edit
                    </Button>
                    <Button kind="secondary" busy={act.isPending && act.variables?.id === d.id} onClick={() => act.mutate({ id: d.id, action: d.status === 'Published' ? 'unpublish' : 'publish' })}>
                      {d.status === 'Published' ? 'Unpublish' : 'Publish'}
                    </Button>
                    <ConfirmButton label="Delete" confirm="Delete it?" onConfirm={() => act.mutate({ id: d.id, action: 'delete' })} />
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Card>
  );
}

export default function Content() {
  return (
    <Page title="Announcements and release notes">
      <Documents kind="announcements" title="Announcements" />
      <Documents kind="release-notes" title="Release notes" />
    </Page>
  );
}
