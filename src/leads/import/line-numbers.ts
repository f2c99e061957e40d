/**
 * The line each CSV record starts on, for error reports. The parser reports the line a record
 * ends on and how many empty lines it skipped so far; a quoted field may span lines. A record
 * starts on the line after the previous record ended, plus the empty lines skipped in between.
 * It must see every record in the order parsed, skipped ones included (the parser's on_record
 * and on_skip hooks run in that order; its output stream may lag behind them).
 */
export class RecordLines {
  private previousEnd = 0;
  private previousEmpty = 0;

  startOf(endLine: number, emptyLinesSoFar: number): number {
    const start = this.previousEnd + 1 + Math.max(0, emptyLinesSoFar - this.previousEmpty);
    this.previousEnd = Math.max(this.previousEnd, endLine);
    this.previousEmpty = emptyLinesSoFar;
    return Math.min(start, Math.max(endLine, 1));
  }
}
