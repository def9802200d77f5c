// Sortable tables: a click (or Enter) on a column's heading sorts its rows by that column, again to reverse.
// A cell's data-sort value, when it has one, is what it sorts by; numbers sort as numbers, empty cells last.
(function () {
  function key(row, column) {
    var cell = row.cells[column];
    if (!cell) return '';
    return cell.hasAttribute('data-sort') ? cell.getAttribute('data-sort') : cell.textContent.trim();
  }
  function compare(a, b) {
    if (a === '' || b === '') return a === b ? 0 : a === '' ? 1 : -1;
    var x = Number(a), y = Number(b);
    if (!isNaN(x) && !isNaN(y)) return x - y;
    return a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });
  }
  function sort(table, column, heading) {
    var body = table.tBodies[0];
    var descending = heading.getAttribute('aria-sort') === 'ascending';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r, s) {
      var order = compare(key(r, column), key(s, column));
      return descending ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(heading.parentNode.cells, function (th) { th.removeAttribute('aria-sort'); });
    heading.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (heading, column) {
      heading.tabIndex = 0;
      heading.addEventListener('click', function () { sort(table, column, heading); });
      heading.addEventListener('keydown', function (event) {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); sort(table, column, heading); }
      });
    });
  });
})();
