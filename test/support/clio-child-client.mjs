// A Clio client in its own process, as the real Clio CLI is: connects to the port in CLIO_CHILD_PORT
// (not an argument: the command line is part of what "Always allow this program" remembers, the port
// changes with each start) without a token and sends the seed's `connect` (with `clientName` argv[2] if
// given). Every message received is
// printed as one JSON line; every JSON line on stdin is sent. On close: {"closed":{code,reason}}, exit.
import WebSocket from 'ws';

const port = process.env.CLIO_CHILD_PORT;
const [clientName] = process.argv.slice(2);
const socket = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

socket.on('open', () => {
  print({ open: true });
  socket.send(JSON.stringify({ type: 'connect', clientVersion: '0.1.0', ...(clientName && { clientName }) }));
});
socket.on('message', (data) => print(JSON.parse(data.toString())));
socket.on('close', (code, reason) => {
  print({ closed: { code, reason: reason.toString() } });
  process.exit(0);
});
socket.on('error', (error) => print({ error: error.message }));

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    if (line.trim() !== '') socket.send(line);
  }
});
