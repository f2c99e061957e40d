import { Type } from '@sinclair/typebox';
import { MAX_CAMPAIGN_MAILBOXES } from '../../../campaigns/sending/campaign-mailboxes';
import { Nullable } from './schemas';

/**
 * The mailboxes a campaign sends from, on create, PATCH and GET of both surfaces (`mailbox_ids` on
 * A, `mailboxIds` on B). Each id named once and an active mailbox of the account: checked by
 * checkCampaignMailboxes, whose 400 names the id in the way (JSON Schema's uniqueItems would not).
 */

const SENDING =
  'New leads rotate among them (least recently used with room under its daily cap and minimum gap, both per mailbox and shared with ' +
  'the account\'s other campaigns); a lead keeps the mailbox that first wrote to it while that mailbox is active and still named here, ' +
  'else moves to one of these. When none of them is active, the campaign sends nothing and waits (its GET says so: no_active_mailbox): it never ' +
  'falls back to another mailbox or to the default sender.';

const MailboxIdList = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: MAX_CAMPAIGN_MAILBOXES, description });

/** On create: absent means every active mailbox of the account. */
export const MailboxIdsCreate = () =>
  Type.Optional(
    MailboxIdList(
      `Ids of the account's active mailboxes (1 to ${MAX_CAMPAIGN_MAILBOXES}, each once) the campaign sends from; absent: every active mailbox of the account. ${SENDING} ` +
        'An unknown, deactivated or repeated id, or another account\'s, is a 400 naming it, and nothing is created.',
    ),
  );

/** On PATCH: null returns the campaign to every active mailbox of the account. */
export const MailboxIdsPatch = () =>
  Type.Optional(
    Nullable(
      MailboxIdList(`The new set of mailboxes (each an active mailbox of the account, named once). ${SENDING}`),
      'null: every active mailbox of the account again.',
    ),
  );

/** On GET. */
export const MailboxIdsView = () => Nullable(Type.Array(Type.String()), `The mailboxes the campaign sends from; null: every active mailbox of the account. ${SENDING}`);

/** Why the campaign's mailboxes cannot send now: see mailboxesReasonOf. */
export const MailboxesReasonView = () =>
  Nullable(
    Type.Literal('no_active_mailbox'),
    'no_active_mailbox: none of the mailboxes the campaign names is active, so it sends nothing until one is added again (POST /v1/mailboxes with its address) or its mailboxes change; null otherwise.',
  );
