import { markDeliveryFailed } from '../../src/webhooks/record-attempts';
import type { ActivityDeps } from '../deps';

/** Activity `markWebhookDeliveryFailed`: the sixth failure of a cycle ends it as `failed`. */
export function markWebhookDeliveryFailed(deps: ActivityDeps) {
  return (input: { readonly deliveryId: string; readonly cycle: number }): Promise<void> => markDeliveryFailed(deps.sequelize, input.deliveryId, input.cycle);
}
