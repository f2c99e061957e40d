import { runCli } from './outreach';

void runCli();
