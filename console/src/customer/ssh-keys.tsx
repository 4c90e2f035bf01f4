import { useState } from 'react';
import { api, call, get } from '../api/client';
import { keys } from '../api/keys';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Page, Table, TextArea, useAction, when } from '../ui/kit';
import { useSshKeys } from './shared/ssh-keys';

type SshKey = NonNullable<ReturnType<typeof useSshKeys>['data']>[number];

/** One key's row: its name (or the rename form), type, fingerprint, and its actions. */
function KeyRow({ k }: { k: SshKey }) {
  const [renaming, setRenaming] = useState(false);
  const path = { params: { path: { id: k.id } } };
  const rename = useAction((name: string) => get(() => api.PATCH('/api/ssh-keys/{id}', { ...path, body: { name } })), { invalidate: [keys.sshKeys], onSuccess: () => setRenaming(false) });
  const remove = useAction(() => call(() => api.DELETE('/api/ssh-keys/{id}', path)), { invalidate: [keys.sshKeys] });
  return (
    <tr>
      <td>
        {renaming ? (
          <form
            className="inline"
            onSubmit={(e) => {
              e.preventDefault();
              rename.mutate(formValues(e.currentTarget).name ?? '');
            }}
          >
            <Input label={`New name for ${k.name}`} name="name" defaultValue={k.name} required maxLength={64} autoFocus />
            <Button type="submit" busy={rename.isPending}>
              Save
            </Button>
            <Button kind="secondary" onClick={() => setRenaming(false)}>
              Cancel
            </Button>
            <ErrorMessage error={rename.error} />
          </form>
        ) : (
          k.name
        )}
      </td>
      <td>
        {k.key_type} ({k.bits} bits)
      </td>
      <td>
        <code>{k.fingerprint}</code>
      </td>
      <td>{when(k.created_at)}</td>
      <td>
        <div className="row">
          {renaming ? null : (
            <Button kind="secondary" aria-label={`Rename ${k.name}`} onClick={() => setRenaming(true)}>
              Rename
            </Button>
          )}
          <ConfirmButton label={`Delete ${k.name}`} confirm="New VMs can no longer be given this key. VMs created with it keep it." busy={remove.isPending} onConfirm={() => remove.mutate(undefined)} />
        </div>
        <ErrorMessage error={remove.error} />
      </td>
    </tr>
  );
}

/** The SSH public keys a customer puts on new VMs. */
export default function SshKeys() {
  const list = useSshKeys();
  const [formKey, setFormKey] = useState(0);
  const add = useAction((body: { name: string; public_key: string }) => get(() => api.POST('/api/ssh-keys', { body })), { invalidate: [keys.sshKeys], onSuccess: () => setFormKey((n) => n + 1) });
  return (
    <Page title="SSH keys">
      <p className="muted">A VM lets in the keys chosen when it is created. Deleting or renaming a key here changes no VM.</p>
      <Loaded query={list}>
        {(rows) => (
          <Table caption="SSH keys" head={['Name', 'Type', 'Fingerprint', 'Added', 'Actions']} empty={rows.length === 0}>
            {rows.map((k) => (
              <KeyRow key={k.id} k={k} />
            ))}
          </Table>
        )}
      </Loaded>
      <Card title="Add an SSH key">
        <form
          key={formKey}
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            add.mutate({ name: v.name ?? '', public_key: v.public_key ?? '' });
          }}
        >
          <Input label="Name" name="name" required maxLength={64} hint="Your label for it, such as the computer it is on." />
          <TextArea label="Public key" name="public_key" required placeholder="ssh-ed25519 AAAA… you@laptop" spellCheck={false} />
          <p className="muted">Paste one line of your public key file, such as ~/.ssh/id_ed25519.pub (never the private key). Make one with ssh-keygen -t ed25519.</p>
          <ErrorMessage error={add.error} />
          {add.isSuccess ? <p role="status">Key {add.data.name} added: {add.data.fingerprint}</p> : null}
          <Button type="submit" busy={add.isPending}>
            Add key
          </Button>
        </form>
      </Card>
    </Page>
  );
}
