import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

export type CalendarProvider = 'calcom' | 'calendly';

/** A meeting booked through a campaign's calendar link, as the calendar provider reported it. */
export class Meeting extends Model<InferAttributes<Meeting>, InferCreationAttributes<Meeting>> {
  declare id: string;
  declare accountId: string;
  declare campaignId: CreationOptional<string | null>;
  declare leadId: CreationOptional<string | null>;
  declare provider: CalendarProvider;
  declare externalId: string;
  declare email: string;
  declare name: CreationOptional<string | null>;
  declare company: CreationOptional<string | null>;
  declare meetingTime: CreationOptional<Date | null>;
  declare calendarLink: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
}

export function initMeeting(sequelize: Sequelize): void {
  Meeting.init(
    {
      id: col.id(),
      accountId: col.text(false),
      campaignId: col.text(),
      leadId: col.text(),
      provider: col.text(false),
      externalId: col.text(false),
      email: col.text(false),
      name: col.text(),
      company: col.text(),
      meetingTime: col.time(),
      calendarLink: col.text(),
      createdAt: col.time(false),
    },
    { sequelize, tableName: 'meetings', updatedAt: false },
  );
}
