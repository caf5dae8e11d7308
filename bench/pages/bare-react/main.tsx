/**
 * React and a WebSocket, nothing else: the titles the server sends on connecting, drawn as a list.
 * What the app does to show its queue, without the app.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

function Queue() {
  const [titles, setTitles] = useState<string[]>([]);
  useEffect(() => {
    const socket = new WebSocket(`ws://${location.host}/`);
    socket.onmessage = (event: MessageEvent<string>) =>
      setTitles((JSON.parse(event.data) as { queue: string[] }).queue);
    return () => socket.close();
  }, []);
  return (
    <ul>
      {titles.map((title) => (
        <li key={title}>{title}</li>
      ))}
    </ul>
  );
}

createRoot(document.getElementById('root')!).render(<Queue />);
