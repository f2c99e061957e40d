import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

export type LeadSource = 'import' | 'provider' | 'api';

/** A person an account may write to. Unique by lower-cased email within the account. */
export class Lead extends Model<InferAttributes<Lead>, InferCreationAttributes<Lead>> {
  declare id: string;
  declare accountId: string;
  declare email: string;
  declare firstName: CreationOptional<string | null>;
  declare lastName: CreationOptional<string | null>;
  declare title: CreationOptional<string | null>;
  declare company: CreationOptional<string | null>;
  declare companyDomain: CreationOptional<string | null>;
  declare industry: CreationOptional<string | null>;
  declare city: CreationOptional<string | null>;
  declare state: CreationOptional<string | null>;
  declare country: CreationOptional<string | null>;
  declare linkedinUrl: CreationOptional<string | null>;
  declare phone: CreationOptional<string | null>;
  /** Raw values imports and the provider carry, kept so the profile can be computed again. */
  declare seniorityRaw: CreationOptional<string | null>;
  declare departmentRaw: CreationOptional<string | null>;
  declare companySizeRaw: CreationOptional<string | null>;
  /** The profile (src/leads/profile): computed from the raw fields, read by the audience matcher. */
  declare titleKey: CreationOptional<string | null>;
  /** Every key the title names. */
  declare titleKeys: CreationOptional<string[] | null>;
  declare titleNorm: CreationOptional<string | null>;
  declare seniority: CreationOptional<string | null>;
  declare department: CreationOptional<string | null>;
  declare countryCode: CreationOptional<string | null>;
  /** ISO 3166-2 state or province. */
  declare stateCode: CreationOptional<string | null>;
  declare cityNorm: CreationOptional<string | null>;
  declare industryId: CreationOptional<string | null>;
  declare companySize: CreationOptional<number | null>;
  /** Title, company and industry as given and folded: what keywords are looked for in. */
  declare keywordText: CreationOptional<string | null>;
  /** Import columns that are not lead fields, by normalised name (src/leads/custom-fields.ts); null when none. */
  declare customFields: CreationOptional<Record<string, string> | null>;
  declare source: LeadSource;
  declare externalId: CreationOptional<string | null>;
  declare bouncedAt: CreationOptional<Date | null>;
  declare unsubscribedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function initLead(sequelize: Sequelize): void {
  Lead.init(
    {
      id: col.id(),
      accountId: col.text(false),
      email: col.text(false),
      firstName: col.text(),
      lastName: col.text(),
      title: col.text(),
      company: col.text(),
      companyDomain: col.text(),
      industry: col.text(),
      city: col.text(),
      state: col.text(),
      country: col.text(),
      linkedinUrl: col.text(),
      phone: col.text(),
      seniorityRaw: col.text(),
      departmentRaw: col.text(),
      companySizeRaw: col.text(),
      titleKey: col.text(),
      titleKeys: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: true },
      titleNorm: col.text(),
      seniority: col.text(),
      department: col.text(),
      countryCode: col.text(),
      stateCode: col.text(),
      cityNorm: col.text(),
      industryId: col.text(),
      companySize: col.int(true),
      keywordText: col.text(),
      customFields: { type: DataTypes.JSONB, allowNull: true },
      source: col.text(false),
      externalId: col.text(),
      bouncedAt: col.time(),
      unsubscribedAt: col.time(),
      createdAt: col.time(false),
      updatedAt: col.time(false),
    },
    { sequelize, tableName: 'leads' },
  );
}
