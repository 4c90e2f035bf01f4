import { componentKey } from '../pricing/index.js';

/** What a private network is billed by: the `private_network` component, one per network. */
export function networkPriceItems(privateNetworkComponentId: number) {
  return [{ priceKey: componentKey(privateNetworkComponentId), quantity: 1 }];
}
