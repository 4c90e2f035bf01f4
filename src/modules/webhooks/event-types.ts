/**
 * The events an endpoint can receive, with what `data` carries (docs/api.md, "Webhooks", has the
 * same list). Money in `data` is a JSON number written exactly (2 decimals), as in the API.
 */
export const EVENT_TYPES = {
  'topup.credited': 'A paid top-up reached the wallet: { invoice_id, amount, currency }',
  'invoice.issued': 'A postpaid invoice was issued: { invoice_id, period, total, due_at, currency }',
  'invoice.paid': 'A postpaid invoice was paid in full: { invoice_id, total, currency }',
  'invoice.overdue': 'A postpaid invoice passed its due date unpaid: { invoice_id, total, due_at, currency }',
  'balance.low': 'A charge took the spendable balance below the low-balance threshold: { current_balance, threshold, currency }',
  'account.suspended': "The account's resources were suspended: { reason }",
  'account.resumed': "The account's resources were resumed: {}",
  'vm.state_changed': 'A VM changed status: { vm_id, name, from, to }',
  'snapshot.completed': 'A VM snapshot was taken and is Available (billed from now): { snapshot_id, name, vm_id, size_gb, consistency }',
  'snapshot.failed': 'A VM snapshot could not be taken (status Failed, nothing billed): { snapshot_id, name, vm_id, error }',
  'snapshot.restore_failed': "A restore of a VM from its snapshot ended without writing the VM's disks (the account was suspended, or the VM deleted, before it ran; or the datacenter refused it meanwhile): { snapshot_id, name, vm_id, error }",
  'backup.completed': 'A backup of a VM was stored: { backup_id, vm_id, vm_name, disk_bytes, stored_bytes }',
  'backup.failed': 'A backup of a VM failed after its last attempt: { backup_id, vm_id, vm_name, reason }',
  'network.state_changed': 'A private network changed status: { network_uuid, name, from, to }',
  'bucket.created': 'A bucket became usable: { bucket_uuid, name }',
  'bucket.deleted': 'A bucket was deleted: { bucket_uuid, name }',
  'ticket.replied': 'Staff replied to a ticket: { ticket_id, message_id }',
  'ticket.status_changed': 'A ticket changed status: { ticket_id, from, to }',
  'budget.threshold_crossed': "The month's charges reached a threshold of the monthly budget (once per threshold and month): { month, threshold_percent, budget, spent, currency }",
  'budget.runway_low': 'A prepaid balance lasts fewer than the alert days at the current hourly cost (once until it recovers): { runway_hours, alert_days, current_balance, currency }',
  'alert.fired': 'A metric alert policy fired for a VM: { alert_id, policy_id, policy_name, vm_id, vm_name, metric, comparison, threshold, window_minutes, value, started_at }',
  'alert.resolved': 'A fired metric alert resolved: { alert_id, policy_id, policy_name, vm_id, vm_name, metric, value, started_at, resolved_at }',
} as const;

export type EventType = keyof typeof EVENT_TYPES;
/** What POST /api/webhooks/endpoints/{id}/test sends; no endpoint subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test';
/** In an endpoint's event types: every type, including those added later. */
export const ALL_EVENTS = '*';

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

export function isEventType(t: string): t is EventType {
  return Object.hasOwn(EVENT_TYPES, t);
}
