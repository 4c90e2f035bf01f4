import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../api/client';
import { Button, Card, ConfirmButton, CopyButton, ErrorMessage, formValues, Input, Loaded, money, Notice, Page, Select, Status, Table, useAction, when } from '../ui/kit';
import { LocationSelect } from './shared/resources';
import { keys } from '../api/keys';

type Acl = 'Read_Only' | 'Read_Write';

function Buckets() {
  const buckets = useQuery({ queryKey: keys.buckets, queryFn: () => call(() => api.GET('/api/storage/object', { params: { query: { limit: 100 } } })), refetchInterval: (q) => (q.state.data?.data.some((b) => b.status === 'Creating' || b.status === 'Deleting') ? 1500 : false) });
  const price = useQuery({ queryKey: keys.bucketPrice, queryFn: () => get(() => api.GET('/api/storage/object/price')) });
  const invalidate = [keys.buckets];
  const create = useAction((body: { name: string; location_id: number; size: number; public_acl: 'A' | 'P' }) => get(() => api.POST('/api/storage/object', { body })), { invalidate });
  const acl = useAction((b: { uuid: string; public_acl: 'A' | 'P' }) => call(() => api.PATCH('/api/storage/object/{uuid}/acl', { params: { path: { uuid: b.uuid } }, body: { public_acl: b.public_acl } })), { invalidate });
  const resize = useAction((b: { uuid: string; size: number }) => call(() => api.PATCH('/api/storage/object/{uuid}/resize', { params: { path: { uuid: b.uuid } }, body: { size: b.size } })), { invalidate });
  const remove = useAction((uuid: string) => call(() => api.DELETE('/api/storage/object/{uuid}', { params: { path: { uuid } } })), { invalidate });
  return (
    <Card title="Buckets">
      {price.data ? (
        <p className="muted">
          Price per GB-month: {price.data.tiers.map((t) => `${t.from_gb}${t.to_gb ? `–${t.to_gb}` : '+'} GB ${money(t.price_per_gb_month, price.data.currency)}`).join(' · ')}
        </p>
      ) : null}
      <ErrorMessage error={acl.error ?? resize.error ?? remove.error} />
      <Loaded query={buckets}>
        {(r) => (
          <Table caption="Buckets" head={['Name', 'Status', 'Size', 'Access', 'Endpoint', '']} empty={r.data.length === 0}>
            {r.data.map((b) => (
              <tr key={b.uuid}>
                <td>{b.name}</td>
                <td>
                  <Status value={b.status} />
                </td>
                <td>
                  <form
                    className="inline"
                    onSubmit={(e) => {
                      e.preventDefault();
                      resize.mutate({ uuid: b.uuid, size: Number(formValues(e.currentTarget).size) });
                    }}
                  >
                    <Input label={`Size of ${b.name} (GB)`} name="size" type="number" min={1} defaultValue={b.size} />
                    <Button type="submit" kind="secondary" busy={resize.isPending && resize.variables?.uuid === b.uuid}>
                      Resize
                    </Button>
                  </form>
                </td>
                <td>
                  <Select label={`Access of ${b.name}`} value={b.public_acl} disabled={acl.isPending} onChange={(e) => acl.mutate({ uuid: b.uuid, public_acl: e.target.value as 'A' })} options={[{ value: 'P', label: 'Private' }, { value: 'A', label: 'Public read' }]} />
                </td>
                <td>{b.endpoint ?? '—'}</td>
                <td>
                  <ConfirmButton label="Delete" confirm="Delete this bucket (it must be empty)?" busy={remove.isPending && remove.variables === b.uuid} onConfirm={() => remove.mutate(b.uuid)} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          create.mutate({ name: v.name ?? '', location_id: Number(v.location_id), size: Number(v.size ?? 10), public_acl: v.public_acl === 'A' ? 'A' : 'P' });
        }}
      >
        <h3>New bucket</h3>
        <Input label="Bucket name" name="name" required pattern="[a-z0-9][a-z0-9\-]*" hint="Lowercase letters, digits and hyphens; unique on the platform." />
        <LocationSelect />
        <Input label="Size (GB)" name="size" type="number" min={1} defaultValue={10} />
        <Select label="Access" name="public_acl" options={[{ value: 'P', label: 'Private' }, { value: 'A', label: 'Public read' }]} />
        <ErrorMessage error={create.error} />
        <Button type="submit" busy={create.isPending}>
          Create bucket
        </Button>
      </form>
    </Card>
  );
}

function Keys() {
  const [secret, setSecret] = useState<{ access: string; secret: string }>();
  const accessKeys = useQuery({ queryKey: keys.storageKeys, queryFn: () => call(() => api.GET('/api/storage/object/keys', { params: { query: { limit: 100 } } })) });
  const buckets = useQuery({ queryKey: keys.buckets, queryFn: () => call(() => api.GET('/api/storage/object', { params: { query: { limit: 100 } } })) });
  const invalidate = [keys.storageKeys];
  const create = useAction((body: { name: string; location_id: number }) => get(() => api.POST('/api/storage/object/keys', { body })), { invalidate, onSuccess: (k) => setSecret({ access: k.AccessKey, secret: k.SecretKey }) });
  const toggle = useAction((k: { AccessKey: string; is_active: boolean }) => call(() => api.PATCH('/api/storage/object/keys/{accessKey}', { params: { path: { accessKey: k.AccessKey } }, body: { is_active: !k.is_active } })), { invalidate });
  const remove = useAction((accessKey: string) => call(() => api.DELETE('/api/storage/object/keys/{accessKey}', { params: { path: { accessKey } } })), { invalidate });
  const grant = useAction((g: { accessKey: string; bucket_uuid: string; acl: Acl }) => call(() => api.POST('/api/storage/object/keys/{accessKey}/buckets', { params: { path: { accessKey: g.accessKey } }, body: { bucket_uuid: g.bucket_uuid, acl: g.acl } })), { invalidate });
  const revoke = useAction((g: { accessKey: string; bucketUuid: string }) => call(() => api.DELETE('/api/storage/object/keys/{accessKey}/buckets/{bucketUuid}', { params: { path: g } })), { invalidate });
  return (
    <Card title="Access keys">
      {secret ? (
        <Notice tone="warning">
          <p>
            <b>Copy the secret key now: it is shown only once.</b>
          </p>
          <p>
            Access key <span className="secret">{secret.access}</span>
          </p>
          <p>
            Secret key <span className="secret" data-testid="secret-key">{secret.secret}</span> <CopyButton text={secret.secret} label="Copy the secret" />
          </p>
          <Button kind="secondary" onClick={() => setSecret(undefined)}>
            I have saved it
          </Button>
        </Notice>
      ) : null}
      <ErrorMessage error={toggle.error ?? remove.error ?? grant.error ?? revoke.error} />
      <Loaded query={accessKeys}>
        {(r) => (
          <Table caption="Access keys" head={['Name', 'Access key', 'Status', 'Bucket grants', '']} empty={r.data.length === 0}>
            {r.data.map((k) => (
              <tr key={k.AccessKey}>
                <td>{k.name}</td>
                <td className="secret">{k.AccessKey}</td>
                <td>
                  <Status value={k.is_active ? k.status : 'Disabled'} />
                </td>
                <td>
                  <ul>
                    {k.buckets.map((b) => (
                      <li key={b.bucket_uuid} className="row">
                        {b.bucket_name}: {b.acl === 'Read_Write' ? 'read and write' : 'read only'}
                        <Button kind="link" onClick={() => revoke.mutate({ accessKey: k.AccessKey, bucketUuid: b.bucket_uuid })}>
                          Revoke
                        </Button>
                      </li>
                    ))}
                  </ul>
                  <form
                    className="inline"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const v = formValues(e.currentTarget);
                      if (v.bucket) grant.mutate({ accessKey: k.AccessKey, bucket_uuid: v.bucket, acl: (v.acl ?? 'Read_Only') as Acl });
                    }}
                  >
                    <Select label={`Bucket for ${k.name}`} name="bucket" placeholder="Choose" options={(buckets.data?.data ?? []).map((b) => ({ value: b.uuid, label: b.name }))} />
                    <Select label="Access" name="acl" options={[{ value: 'Read_Only', label: 'Read only' }, { value: 'Read_Write', label: 'Read and write' }]} />
                    <Button type="submit" kind="secondary" busy={grant.isPending && grant.variables?.accessKey === k.AccessKey}>
                      Grant
                    </Button>
                  </form>
                </td>
                <td className="row">
                  <Button kind="secondary" busy={toggle.isPending && toggle.variables?.AccessKey === k.AccessKey} onClick={() => toggle.mutate(k)}>
                    {k.is_active ? 'Disable' : 'Enable'}
                  </Button>
                  <ConfirmButton label="Delete" confirm="Delete this key?" onConfirm={() => remove.mutate(k.AccessKey)} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          create.mutate({ name: v.name ?? '', location_id: Number(v.location_id) });
        }}
      >
        <Input label="Key name" name="name" required />
        <LocationSelect />
        <Button type="submit" busy={create.isPending}>
          Create key
        </Button>
      </form>
      <ErrorMessage error={create.error} />
      <p className="muted">Keys are listed with their creation date; {accessKeys.data?.data[0] ? `the newest is from ${when(accessKeys.data.data[0].created_at)}` : 'none yet'}.</p>
    </Card>
  );
}

export default function Storage() {
  return (
    <Page title="Object storage">
      <Buckets />
      <Keys />
    </Page>
  );
}
