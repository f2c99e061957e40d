import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

/** What a scrape of a company's site found. One row per (account, domain); a new scrape updates it. */
export class Company extends Model<InferAttributes<Company>, InferCreationAttributes<Company>> {
  declare id: string;
  declare accountId: string;
  declare url: string;
  declare domain: string;
  declare name: CreationOptional<string | null>;
  declare description: CreationOptional<string | null>;
  declare logoUrl: CreationOptional<string | null>;
  declare socialLinks: CreationOptional<Record<string, string>>;
  declare contactEmails: CreationOptional<string[]>;
  declare technologies: CreationOptional<string[]>;
  declare industryKeywords: CreationOptional<string[]>;
  declare scrapedAt: CreationOptional<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function initCompany(sequelize: Sequelize): void {
  Company.init(
    {
      id: col.id(),
      accountId: col.text(false),
      url: col.text(false),
      domain: col.text(false),
      name: col.text(),
      description: col.text(),
      logoUrl: col.text(),
      socialLinks: { ...col.json(), defaultValue: {} },
      contactEmails: { ...col.json(), defaultValue: [] },
      technologies: { ...col.json(), defaultValue: [] },
      industryKeywords: { ...col.json(), defaultValue: [] },
      scrapedAt: col.time(false),
      createdAt: col.time(false),
      updatedAt: col.time(false),
    },
    { sequelize, tableName: 'companies' },
  );
}
