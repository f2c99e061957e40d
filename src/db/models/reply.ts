import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

export const REPLY_CATEGORIES = ['interested', 'meeting_booked', 'closed', 'neutral', 'not_interested', 'out_of_office', 'unsubscribe'] as const;
export type ReplyCategory = (typeof REPLY_CATEGORIES)[number];
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];
export type ReplyKind = 'reply' | 'auto_reply' | 'bounce';

/**
 * An inbound message matched (or not) to a sent email. The lead's name, company and title are
 * copied at receipt, so the reply reads the same after the lead changes.
 */
export class Reply extends Model<InferAttributes<Reply>, InferCreationAttributes<Reply>> {
  declare id: string;
  declare accountId: string;
  declare campaignId: CreationOptional<string | null>;
  declare emailId: CreationOptional<string | null>;
  declare leadId: CreationOptional<string | null>;
  declare kind: ReplyKind;
  declare fromEmail: string;
  declare fromName: CreationOptional<string | null>;
  declare toEmail: CreationOptional<string | null>;
  declare subject: CreationOptional<string | null>;
  declare messageId: CreationOptional<string | null>;
  declare inReplyTo: CreationOptional<string | null>;
  declare bodyText: CreationOptional<string>;
  declare preview: CreationOptional<string>;
  declare leadName: CreationOptional<string | null>;
  declare leadCompany: CreationOptional<string | null>;
  declare leadTitle: CreationOptional<string | null>;
  /** The effective label: the user's correction when there is one, else the qualifier's. Statistics read these two. */
  declare category: CreationOptional<ReplyCategory | null>;
  declare sentiment: CreationOptional<Sentiment | null>;
  /** What the qualifier said, kept beside the user's correction. */
  declare modelCategory: CreationOptional<ReplyCategory | null>;
  declare modelSentiment: CreationOptional<Sentiment | null>;
  /** The user's correction; null when there is none (the model's label stands). */
  declare userCategory: CreationOptional<ReplyCategory | null>;
  /** When and by whom (an API key id) the label was last corrected or dropped. */
  declare labelledAt: CreationOptional<Date | null>;
  declare labelledBy: CreationOptional<string | null>;
  /** When the reply was first marked read; null: unread. */
  declare readAt: CreationOptional<Date | null>;
  /** The message's HTML part as received (bounded); sanitised only when shown. */
  declare bodyHtml: CreationOptional<string | null>;
  declare confidence: CreationOptional<number | null>;
  declare nextAction: CreationOptional<string | null>;
  declare qualifiedBy: CreationOptional<string | null>;
  declare receivedAt: Date;
  declare createdAt: CreationOptional<Date>;
}

export function initReply(sequelize: Sequelize): void {
  Reply.init(
    {
      id: col.id(),
      accountId: col.text(false),
      campaignId: col.text(),
      emailId: col.text(),
      leadId: col.text(),
      kind: col.text(false),
      fromEmail: col.text(false),
      fromName: col.text(),
      toEmail: col.text(),
      subject: col.text(),
      messageId: col.text(),
      inReplyTo: col.text(),
      bodyText: { ...col.text(false), defaultValue: '' },
      preview: { ...col.text(false), defaultValue: '' },
      leadName: col.text(),
      leadCompany: col.text(),
      leadTitle: col.text(),
      category: col.text(),
      sentiment: col.text(),
      modelCategory: col.text(),
      modelSentiment: col.text(),
      userCategory: col.text(),
      labelledAt: col.time(),
      labelledBy: col.text(),
      readAt: col.time(),
      bodyHtml: col.text(),
      confidence: col.real(),
      nextAction: col.text(),
      qualifiedBy: col.text(),
      receivedAt: col.time(false),
      createdAt: col.time(false),
    },
    { sequelize, tableName: 'replies', updatedAt: false },
  );
}
