/*
 * walker: a Web Worker stand-in for pages opened from file://. Named iframe-worker.js so that
 * Material's offline plugin sees a shim is present and adds no CDN script of its own.
 *
 * Chromium refuses to start workers from file:// URLs, which leaves the site
 * search without its worker. Loaded before the theme's scripts, this replaces
 * Worker on file:// pages only: the worker script runs in a hidden iframe of the
 * same page, and messages are relayed both ways. Nothing leaves the machine.
 */
(function () {
  "use strict";
  if (location.protocol !== "file:") return;

  class FileWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.onerror = null;
      const frame = document.createElement("iframe");
      frame.hidden = true;
      frame.setAttribute("aria-hidden", "true");
      (document.body || document.documentElement).appendChild(frame);
      const scope = frame.contentWindow;
      const pending = [];
      let ready = false;
      const deliverToPage = (data) => {
        const event = new MessageEvent("message", { data: data });
        setTimeout(() => {
          this.dispatchEvent(event);
          if (typeof this.onmessage === "function") this.onmessage(event);
        }, 0);
      };
      const deliverToWorker = (data) => {
        scope.dispatchEvent(new scope.MessageEvent("message", { data: data }));
      };
      scope.postMessage = deliverToPage;
      scope.importScripts = function () {
        throw new Error("importScripts is not available to a worker started from file://");
      };
      const script = scope.document.createElement("script");
      script.src = new URL(url, location.href).href;
      script.onload = () => {
        ready = true;
        pending.splice(0).forEach(deliverToWorker);
      };
      script.onerror = (error) => {
        if (typeof this.onerror === "function") this.onerror(error);
      };
      scope.document.head.appendChild(script);
      this.postMessage = (data) => (ready ? deliverToWorker(data) : pending.push(data));
      this.terminate = () => frame.remove();
    }
  }

  window.Worker = FileWorker;
})();
