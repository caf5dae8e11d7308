/** `request_approval`: an approval card in the queue (seed 001), answered by the push `approval_result`. */
import { ErrorCode } from '../../../../shared/native-protocol';
import { defineCommand, RequestError } from './command';

export const requestApproval = defineCommand('request_approval', () => {
  throw new RequestError(ErrorCode.UNKNOWN_COMMAND, 'request_approval is not served yet');
});
