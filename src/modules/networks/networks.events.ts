import type { WebhookEvent } from '../webhooks/index.js';
import type { PrivateNetwork } from './networks.repository.js';

type Status = PrivateNetwork['status'];
/** As the API shows it: the stored `Active` reads `ACTIVE`. */
const shown = (s: Status | null) => (s === 'Active' ? 'ACTIVE' : s);

/** The `network.state_changed` webhook event (from null: the network was just requested). */
export function networkStateChanged(n: Pick<PrivateNetwork, 'uuid' | 'name' | 'customerId'>, from: Status | null, to: Status): WebhookEvent {
  return { customerId: n.customerId, type: 'network.state_changed', data: { network_uuid: n.uuid, name: n.name, from: shown(from), to: shown(to) } };
}
