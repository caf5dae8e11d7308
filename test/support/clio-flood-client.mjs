// A program that keeps connecting to Clio without a token (argv[2] times, one after another, port in
// CLIO_CHILD_PORT), each time sending `connect` and leaving at the first answer or after a second, as a
// flood of connection prompts would. Prints one JSON line per connection: {"error": <message>} or {}.
import WebSocket from 'ws';

const times = Number(process.argv[2] ?? '10');
const port = process.env.CLIO_CHILD_PORT;

function once() {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
    let error;
    const leave = () => {
      clearTimeout(timer);
      socket.terminate();
      resolve(error === undefined ? {} : { error });
    };
    const timer = setTimeout(leave, 1000);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connect', clientVersion: '0.1.0' })));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'error') error = message.message;
      leave();
    });
    socket.on('close', leave);
    socket.on('error', leave);
  });
}

for (let i = 0; i < times; i++) process.stdout.write(`${JSON.stringify(await once())}\n`);
