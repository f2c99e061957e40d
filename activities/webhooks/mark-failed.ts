import type { Sequelize } from 'sequelize';
import { markDeliveryFailed } from '../../src/webhooks/record-attempts';

/** Activity `markWebhookDeliveryFailed`: the sixth failure of a cycle ends it as `failed`. */
export function markWebhookDeliveryFailed(sequelize: Sequelize) {
  return (input: { deliveryId: string; cycle: number }): Promise<void> => markDeliveryFailed(sequelize, input.deliveryId, input.cycle);
}
