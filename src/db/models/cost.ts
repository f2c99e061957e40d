import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

export const COST_CATEGORIES = ['ai_generation', 'lead_enrichment', 'email_sending'] as const;
export type CostCategory = (typeof COST_CATEGORIES)[number];

/** Money spent on one thing. Budgets, usage and the cost endpoints sum these rows. */
export class Cost extends Model<InferAttributes<Cost>, InferCreationAttributes<Cost>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare campaignId: CreationOptional<string | null>;
  declare category: CostCategory;
  declare costName: string;
  declare featureSlug: string;
  declare brandId: CreationOptional<string | null>;
  /** NUMERIC: a string when read back. */
  declare amountUsd: string | number;
  declare quantity: CreationOptional<number>;
  declare details: CreationOptional<Record<string, unknown>>;
  declare idempotencyKey: string;
  declare occurredAt: CreationOptional<Date>;
}

export function initCost(sequelize: Sequelize): void {
  Cost.init(
    {
      id: col.serial(),
      accountId: col.text(false),
      campaignId: col.text(),
      category: col.text(false),
      costName: col.text(false),
      featureSlug: col.text(false),
      brandId: col.text(),
      amountUsd: col.money(),
      quantity: { ...col.int(), defaultValue: 1 },
      details: { ...col.json(), defaultValue: {} },
      idempotencyKey: col.text(false),
      occurredAt: col.time(false),
    },
    { sequelize, tableName: 'costs', timestamps: false },
  );
}
