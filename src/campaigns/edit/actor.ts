import type { AuthContext } from '../../auth/authenticate';
import type { ChangeActor } from '../../../workflows/campaign/contract';

/** Who a change is recorded as: the key the request (or the dashboard session) acted with, and where. */
export function actorOf(auth: Pick<AuthContext, 'keyId' | 'keyPrefix'>, via: ChangeActor['via']): ChangeActor {
  return { via, keyId: auth.keyId, keyPrefix: auth.keyPrefix };
}
