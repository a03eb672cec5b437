// The example page's script: a chat room over a WebSocket, a counter fed by Server-Sent Events, and an
// echo check. No framework: the browser's WebSocket and EventSource.
(function () {
  'use strict';
  var scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  var $ = function (id) { return document.getElementById(id); };

  function setState(id, text, ok) {
    var el = $(id);
    el.textContent = text;
    el.className = ok ? 'ok' : 'bad';
  }

  function addLine(from, text) {
    var li = document.createElement('li');
    if (from) {
      var who = document.createElement('span');
      who.className = 'from';
      who.textContent = from;
      li.appendChild(who);
    } else {
      li.className = 'system';
    }
    li.appendChild(document.createTextNode(text));
    $('log').appendChild(li);
    $('log').scrollTop = $('log').scrollHeight;
  }

  // ---- chat room ----
  var chat;
  function connectChat() {
    chat = new WebSocket(scheme + location.host + '/ws/chat');
    chat.onopen = function () { setState('status', 'connected', true); };
    chat.onmessage = function (e) {
      var m = JSON.parse(e.data);
      if (m.type === 'welcome') {
        $('me').textContent = m.name;
        addLine(null, 'You joined as ' + m.name);
      } else if (m.type === 'presence') {
        $('count').textContent = m.count;
      } else if (m.type === 'message') {
        addLine(m.from, m.text);
      }
    };
    chat.onclose = function (e) {
      setState('status', 'closed (' + e.code + '), reconnecting', false);
      setTimeout(connectChat, 1000);
    };
  }
  connectChat();
  $('send').addEventListener('submit', function (e) {
    e.preventDefault();
    var text = $('text').value;
    if (text && chat.readyState === WebSocket.OPEN) {
      chat.send(text);
      $('text').value = '';
    }
  });

  // ---- live counter ----
  var ticks = new EventSource('/sse/ticks');
  ticks.onopen = function () { setState('sse-status', 'connected', true); };
  ticks.addEventListener('tick', function (e) { $('ticks').textContent = e.data; });
  ticks.onerror = function () { setState('sse-status', 'reconnecting', false); };

  // ---- echo ----
  var echo = new WebSocket(scheme + location.host + '/ws/echo');
  var probe = 'echo ' + Math.random().toString(36).slice(2, 8);
  echo.onopen = function () {
    setState('echo-status', 'connected', true);
    $('echo-sent').textContent = probe;
    echo.send(probe);
  };
  echo.onmessage = function (e) { $('echo-got').textContent = e.data; };
  echo.onclose = function (e) { setState('echo-status', 'closed (' + e.code + ')', false); };
}());
