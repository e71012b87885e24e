/// A first-in, first-out queue over an array, without moving the elements on each removal.
struct FIFO<Element> {
    private var storage: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }

    var first: Element? { isEmpty ? nil : storage[head] }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        // Reclaims the removed slots once they are the larger part, so memory stays proportional to the contents.
        if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns every element, in order.
    mutating func removeAll() -> [Element] {
        let elements = storage[head...].compactMap { $0 }
        storage = []
        head = 0
        return elements
    }
}
