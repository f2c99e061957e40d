import { ConflictError } from '../../errors/domain-errors';
import { ANSWER_REFUSAL_TEXT, type AnswerRefusal } from '../answerability';

/** The lead may not be answered: a 409 that says why, with the reason as a word a program can read. */
export class AnswerRefusedError extends ConflictError {
  constructor(readonly reason: AnswerRefusal) {
    super(ANSWER_REFUSAL_TEXT[reason]);
  }
}
