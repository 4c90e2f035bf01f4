import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { customerOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, IntId, Money, StrictObject } from '../../platform/http/schemas.js';
import { moneyJson, rateJson } from '../../platform/money.js';
import { vmView } from './compute.present.js';
import { Vm, VmParams } from './compute.schemas.js';
import type { ResizePreview, ResizeSide } from './vm-resize.service.js';
import type { VmResizeService } from './vm-resize.service.js';

const tags = ['Compute'];

const Side = Type.Object({
  tier_id: Type.Integer(),
  tier_name: Type.String(),
  cpu: Type.Integer(),
  memory_mb: Type.Integer(),
  disk_gb: Type.Integer({ description: 'the tier’s disk (the VM keeps a larger one it already has)' }),
  monthly_price: Money,
  hourly_price: Type.Number({ description: '6 decimals' }),
});

const ResizeQuote = Type.Object({
  vm_id: Type.Integer(),
  current: Side,
  new: Side,
  monthly_difference: Money,
  hourly_difference: Type.Number({ description: '6 decimals; negative when the new tier costs less' }),
  disk_gb: Type.Integer({ description: 'the disk the VM has after the resize (it only grows)' }),
  restart: Type.Boolean({ description: 'true: the VM is Running and is shut down and started again; false: it is Stopped and stays stopped' }),
});

const ResizeQuery = Type.Object({ tier_id: IntId });
const ResizeBody = StrictObject({ tier_id: IntId });

const sideView = (s: ResizeSide) => ({
  tier_id: s.tier.id,
  tier_name: s.tier.name,
  cpu: s.tier.cpu,
  memory_mb: s.tier.memoryMb,
  disk_gb: s.tier.diskGb,
  monthly_price: moneyJson(s.monthly),
  hourly_price: rateJson(s.hourly),
});

function quoteView(p: ResizePreview) {
  return {
    vm_id: p.vm.id,
    current: sideView(p.current),
    new: sideView(p.next),
    monthly_difference: moneyJson(p.next.monthly.minus(p.current.monthly)),
    hourly_difference: rateJson(p.next.hourly.minus(p.current.hourly)),
    disk_gb: p.diskGb,
    restart: p.restart,
  };
}

const REFUSALS =
  '400 TIER_UNAVAILABLE (hidden, retired, another location or unpriced), TIER_UNCHANGED (its own tier), DISK_CANNOT_SHRINK (a smaller disk than the VM has).';

/** Resizing a VM to another tier of its location: the price first, then the change. */
export const vmResizeRoutes: FastifyPluginAsyncTypebox<{ resize: VmResizeService }> = async (app, { resize }) => {
  app.get(
    '/vm/:id/resize-preview',
    {
      schema: {
        tags,
        summary: 'What the VM costs now and on another tier of its location, and whether resizing restarts it',
        description: `Prices are the VM's whole price (package, public IP, volume) at the prices in force now; nothing is saved. ${REFUSALS}`,
        params: VmParams,
        querystring: ResizeQuery,
        response: { 200: Envelope(ResizeQuote), ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => ({ message: 'OK', data: quoteView(await resize.preview(customerOf(req).customerId, req.params.id, req.query.tier_id)) }),
  );

  app.post(
    '/vm/:id/resize',
    {
      config: { activity: 'vm.resized' },
      schema: {
        tags,
        summary: 'Moves a Running or Stopped VM to another tier of its location (pending_action resize until the datacenter is done)',
        description: `A Running VM is shut down, resized and started again; a Stopped one stays stopped. The disk only grows. The VM is charged at the new tier from the moment the datacenter is done. ${REFUSALS} 402 INSUFFICIENT_BALANCE / ACCOUNT_SUSPENDED when the new tier costs more and the account may not start anything billable. 409 VM_BUSY while another action runs, INVALID_VM_STATE or VM_SUSPENDED otherwise.`,
        params: VmParams,
        body: ResizeBody,
        response: { 200: Envelope(Vm), ...errorResponses(400, 401, 402, 404, 409) },
      },
    },
    async (req) => {
      const vm = await resize.resize(customerOf(req).customerId, req.params.id, req.body.tier_id);
      return { message: vm.restart ? 'VM is being resized: it restarts' : 'VM is being resized: it stays stopped', data: vmView(vm) };
    },
  );
};
