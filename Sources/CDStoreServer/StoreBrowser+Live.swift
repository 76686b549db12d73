import CDStore
import Foundation

extension StoreBrowser {
    /// With `--watch`, the `/_events` address a page listens to (`data-events`); nil otherwise.
    func liveHook(entity: String) -> String? {
        live == nil ? nil : HTML.url("/_events", [("entity", entity)])
    }

    func liveHook(object: ObjectID) -> String? {
        live == nil ? nil : HTML.url("/_events", [("object", ValueCells.href(object))])
    }

    /// `/_events?entity=<Entity>` or `?object=/<Entity>/p<PK>`: the committed changes of an entity (with its
    /// sub-entities) or of one object, as Server-Sent Events (`event: change`, JSON data), until the page goes away.
    func events(_ request: BrowseRequest) throws -> BrowseReply {
        guard let live else { throw BrowseError(.notFound, "this server does not watch the store (start it with --watch)") }
        let filter: LiveChanges.Filter
        if let entity = request.query["entity"] {
            try requireEntity(entity)
            filter = .entity(entity)
        } else if let object = request.query["object"] {
            filter = .object(object)
        } else {
            filter = .all
        }
        return BrowseReply(status: 200, contentType: "text/event-stream; charset=utf-8", body: .events(live.listen(filter)))
    }
}

/// The one script the server serves (`/_static/live.js`, with `--watch` only): it listens to the page's
/// `data-events` and marks what changed. Stored text only ever becomes `textContent`, never markup.
enum LiveScript {
    static let text = """
        "use strict";
        (function () {
          var address = document.body.getAttribute("data-events");
          if (!address || !window.EventSource) { return; }
          var changes = 0;
          var banner = document.createElement("div");
          banner.id = "live";
          banner.className = "live";
          banner.textContent = "Watching for changes…";
          var main = document.querySelector("main");
          main.insertBefore(banner, main.firstChild);
          function say(text) {
            banner.textContent = text + " ";
            var reload = document.createElement("a");
            reload.href = window.location.href;
            reload.textContent = "reload";
            banner.appendChild(reload);
          }
          function fill(row, change, keys) {
            keys.forEach(function (key, i) {
              var cell = row.cells[i];
              if (!cell || !(key in change.values)) { return; }
              cell.textContent = "";
              if (change.links && key in change.links) {
                var link = document.createElement("a");
                link.href = change.links[key];
                link.textContent = change.values[key];
                cell.appendChild(link);
              } else {
                cell.textContent = change.values[key];
              }
            });
          }
          var source = new EventSource(address);
          source.addEventListener("change", function (message) {
            var change = JSON.parse(message.data);
            changes += 1;
            var table = document.getElementById("objects");
            if (table) {
              var keys = Array.prototype.map.call(table.tHead.rows[0].cells, function (th) { return th.getAttribute("data-key"); });
              var row = Array.prototype.find.call(table.tBodies[0].rows, function (r) { return r.getAttribute("data-id") === change.href; });
              if (change.kind === "inserted" && !row) {
                row = table.tBodies[0].insertRow(0);
                keys.forEach(function () { row.insertCell(-1); });
                row.setAttribute("data-id", change.href);
                fill(row, change, keys);
                var link = document.createElement("a");
                link.href = change.href;
                link.textContent = "p" + change.pk;
                row.cells[0].textContent = "";
                row.cells[0].appendChild(link);
                var entityColumn = keys.indexOf("_entity");
                if (entityColumn >= 0) { row.cells[entityColumn].textContent = change.entity; }
              } else if (row && change.kind === "updated") {
                fill(row, change, keys);
              }
              if (row) { row.className = change.kind; }
            }
            var attributes = document.getElementById("attributes");
            if (attributes && !table) {
              Array.prototype.forEach.call(attributes.tBodies[0].rows, function (r) {
                var key = r.cells[0].textContent;
                if (change.kind === "updated" && key in change.values && r.cells[2].textContent !== change.values[key]) {
                  r.cells[2].textContent = change.values[key];
                  r.className = "updated";
                }
              });
              if (change.kind === "deleted") { document.querySelector("h1").className = "deleted"; }
            }
            var what = change.kind + " " + change.entity + " p" + change.pk + (change.label ? " (" + change.label + ")" : "");
            say(changes + (changes === 1 ? " change" : " changes") + " since this page was loaded; last: " + what + ".");
          });
          source.addEventListener("error", function () {
            if (source.readyState === EventSource.CLOSED) { say("Stopped watching: the server went away."); }
          });
        })();
        """
}
