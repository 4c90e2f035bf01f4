import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../../api/client';
import { Card, ConfirmButton, ErrorMessage, Loaded, money, useAction } from '../../ui/kit';
import { keys } from '../../api/keys';
import { useCatalog } from './resources';

type Vm = { id: number; name: string; location_id: number; tier_id: number; status: string; pending_action: string | null; disk_gb: number; resize: { from_tier_id: number; to_tier_id: number } | null };
type Quote = NonNullable<Awaited<ReturnType<typeof quoteOf>>>;

function quoteOf(vmId: number, tierId: number) {
  return get(() => api.GET('/api/compute/vm/{id}/resize-preview', { params: { path: { id: vmId }, query: { tier_id: tierId } } }));
}

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${money(Math.abs(n))}`;

function confirmText(vm: Vm, q: Quote): string {
  const price = `It will cost ${money(q.new.monthly_price)} a month (${money(q.new.hourly_price)} an hour) instead of ${money(q.current.monthly_price)}, from the moment the resize is done.`;
  const restart = q.restart ? 'The VM will restart: it is shut down, resized and started again.' : 'The VM is stopped and stays stopped.';
  return `Resize ${vm.name} to ${q.new.tier_name}? ${price} ${restart}`;
}

/**
 * While a resize is under way: the size the VM is moving to, from the location's catalog (a tier no
 * longer listed is named by its number). Said once the catalog has answered, not a number first and
 * the name a moment later (the status is announced).
 */
export function ResizeTarget({ vm }: { vm: Vm }) {
  const catalog = useCatalog(vm.location_id);
  if (!vm.resize || catalog.isPending) return null;
  const to = catalog.data?.find((t) => t.id === vm.resize!.to_tier_id);
  return (
    <p role="status" aria-label="Resizing">
      Resizing to <b>{to ? to.name : `tier ${vm.resize.to_tier_id}`}</b>
      {to ? `: ${to.cpu} vCPU, ${to.memory_mb / 1024} GB RAM, ${to.disk_gb} GB disk` : ''}. The size above changes when it is done.
    </p>
  );
}

/** The VM page's Resize card: the location's tiers with their prices, the new price, then a confirmation. */
export function VmResize({ vm }: { vm: Vm }) {
  const catalog = useCatalog(vm.location_id);
  const [tierId, setTierId] = useState<number | undefined>();
  const quote = useQuery({ queryKey: keys.vms.resizePreview(vm.id, tierId), queryFn: () => quoteOf(vm.id, tierId!), enabled: tierId !== undefined, retry: false });
  const [done, setDone] = useState<string | undefined>();
  const resize = useAction((tier: number) => call(() => api.POST('/api/compute/vm/{id}/resize', { params: { path: { id: vm.id } }, body: { tier_id: tier } })), {
    invalidate: [keys.vms.all],
    onSuccess: (answer) => {
      setDone(answer.message);
      setTierId(undefined);
    },
  });
  const resizable = (vm.status === 'Running' || vm.status === 'Stopped') && !vm.pending_action;

  return (
    <Card title="Resize">
      <Loaded query={catalog}>
        {(tiers) => (
          <fieldset className="stack">
            <legend>New size</legend>
            <p className="muted">The disk only grows: sizes with a smaller disk than this VM’s {vm.disk_gb} GB cannot be chosen.</p>
            {tiers.map((t) => {
              const current = t.id === vm.tier_id;
              const smaller = t.disk_gb < vm.disk_gb;
              return (
                <div className="check" key={t.id}>
                  <input type="radio" id={`resize-tier-${t.id}`} name="resize-tier" value={t.id} disabled={current || smaller || !resizable} checked={tierId === t.id} onChange={() => { setTierId(t.id); setDone(undefined); resize.reset(); }} />
                  <label htmlFor={`resize-tier-${t.id}`}>
                    <b>{t.name}</b>: {t.cpu} vCPU, {t.memory_mb / 1024} GB RAM, {t.disk_gb} GB disk — {money(t.monthly_price)} / month, {money(t.hourly_price)} / hour
                    {current ? <span className="badge tag">current</span> : t.id === vm.resize?.to_tier_id ? <span className="badge tag">resizing to</span> : smaller ? <span className="badge tag">disk too small</span> : null}
                  </label>
                </div>
              );
            })}
          </fieldset>
        )}
      </Loaded>
      {!resizable ? <p className="muted">A VM can be resized when it is Running or Stopped and no other action is under way.</p> : null}
      {tierId !== undefined && quote.data ? (
        <div role="region" aria-label="New price">
          <p>
            Now <b>{money(quote.data.current.monthly_price)}</b> a month on {quote.data.current.tier_name}; on {quote.data.new.tier_name} <b>{money(quote.data.new.monthly_price)}</b> a month ({money(quote.data.new.hourly_price)} an hour): {signed(quote.data.monthly_difference)} a month.
          </p>
          <p>{quote.data.restart ? 'The VM will restart: it is shut down, resized and started again.' : 'The VM is stopped and stays stopped.'}</p>
          <ConfirmButton label="Resize" kind="primary" confirm={confirmText(vm, quote.data)} busy={resize.isPending} disabled={resize.isPending || !resizable} onConfirm={() => resize.mutate(tierId)} />
        </div>
      ) : null}
      <ErrorMessage error={quote.error ?? resize.error} />
      {done ? <p role="status">{done}</p> : null}
    </Card>
  );
}
