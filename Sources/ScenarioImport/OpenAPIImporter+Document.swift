import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Services
import Yams

/// An OpenAPI document read but not yet decoded: its YAML tree (JSON is YAML too), which keeps the document's key
/// order and every value's line and column, so a problem OpenAPIKit finds can still be shown where it is.
struct OpenAPISource {
    /// The OpenAPI versions read: 3.0 documents are decoded by OpenAPIKit30 and converted to 3.1's types.
    enum Version {
        case v30, v31
    }

    var file: String
    var text: String
    var root: Node
    var version: Version

    /// Parses `data` and checks it says it is OpenAPI 3.0 or 3.1.
    /// - Throws: ``ImportError`` at the syntax error's line and column, or at the `openapi` key (or its absence).
    init(data: Data, file: String) throws(ImportError) {
        self.file = file
        let firstByte = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") {
            // YAML's parser would accept some broken JSON, or place its error worse: JSON is parsed strictly first.
            _ = try ImportError.parseJSON(data, file: file, what: "an OpenAPI document")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportError(file: file, problem: "the file is not UTF-8 text; an OpenAPI document is JSON or YAML.")
        }
        self.text = text
        let composed: Node?
        do {
            composed = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.located(error, file: file)
        } catch {
            throw ImportError(file: file, problem: "\(error); this is not an OpenAPI document (JSON or YAML).")
        }
        guard let root = composed, root.mapping != nil else {
            throw ImportError(file: file, line: composed?.mark?.line, column: composed?.mark?.column,
                              problem: "the document is not a mapping of keys (openapi, info, paths, …); this is not an OpenAPI document.")
        }
        self.root = root
        guard let versionNode = root["openapi"] else {
            if let swagger = root["swagger"] {
                throw ImportError(file: file, line: swagger.mark?.line, column: swagger.mark?.column, pointer: "/swagger",
                                  problem: "this is a Swagger 2.0 document; convert it to OpenAPI 3 first (swagger2openapi, or editor.swagger.io's Convert).")
            }
            throw ImportError(file: file, line: root.mark?.line, column: root.mark?.column, pointer: "",
                              problem: "the document has no 'openapi' key; an OpenAPI document starts with `openapi: 3.1.0` (or 3.0.x).")
        }
        let number = versionNode.scalar?.string ?? ""
        if number.hasPrefix("3.0.") {
            version = .v30
        } else if number.hasPrefix("3.1.") {
            version = .v31
        } else {
            throw ImportError(file: file, line: versionNode.mark?.line, column: versionNode.mark?.column, pointer: "/openapi",
                              problem: "'\(number)' is not an OpenAPI version this import reads; it reads 3.0.x and 3.1.x (a quoted string such as \"3.1.0\").")
        }
    }

    // MARK: References

    /// Checks that every `$ref` in the document names something in it, before OpenAPIKit sees them: walking the
    /// tree gives the exact place of a broken one, where OpenAPIKit's dereferencing only names the reference.
    /// - Throws: ``ImportError`` at the first `$ref` (in document order) that does not resolve, or that points into
    ///   another file.
    func checkReferences() throws(ImportError) {
        try checkReferences(in: root, at: [])
    }

    private func checkReferences(in node: Node, at path: [String]) throws(ImportError) {
        switch node {
        case .mapping(let mapping):
            for (key, value) in mapping {
                let name = key.string ?? ""
                if name == "$ref", let target = value.scalar?.string {
                    try check(reference: target, node: value, at: path + [name])
                } else {
                    try checkReferences(in: value, at: path + [name])
                }
            }
        case .sequence(let sequence):
            for (index, item) in sequence.enumerated() { try checkReferences(in: item, at: path + [String(index)]) }
        case .scalar, .alias:
            break
        }
    }

    private func check(reference target: String, node: Node, at path: [String]) throws(ImportError) {
        let pointer = Self.pointer(path)
        guard target.hasPrefix("#") else {
            throw ImportError(file: file, line: node.mark?.line, column: node.mark?.column, pointer: pointer,
                              problem: "'\(target)' refers to another document; external references are not followed: bundle the document first (`redocly bundle`, `swagger-cli bundle`).")
        }
        let fragment = String(target.dropFirst()).removingPercentEncoding ?? String(target.dropFirst())
        guard fragment.isEmpty || fragment.hasPrefix("/") else {
            throw ImportError(file: file, line: node.mark?.line, column: node.mark?.column, pointer: pointer,
                              problem: "'\(target)' is not a JSON pointer (`#/components/schemas/Pet`); anchors (`$anchor`) are not followed, so name the schema by its place.")
        }
        guard self.node(at: fragment) == nil else { return }
        throw ImportError(file: file, line: node.mark?.line, column: node.mark?.column, pointer: pointer,
                          problem: "'\(target)' does not resolve: the document has nothing at \(fragment); add it, or correct the reference.")
    }

    /// The node at a JSON pointer (`/components/schemas/Pet`), or nil when there is none.
    func node(at pointer: String) -> Node? {
        guard !pointer.isEmpty else { return root }
        var node = root
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node {
            case .mapping(let mapping):
                guard let next = mapping.first(where: { $0.key.string == key })?.value else { return nil }
                node = next
            case .sequence(let sequence):
                guard let index = Int(key), sequence.indices.contains(index) else { return nil }
                node = sequence[index]
            case .scalar, .alias:
                return nil
            }
        }
        return node
    }

    /// `/paths/~1pets/get` for the keys `paths`, `/pets`, `get`.
    static func pointer(_ path: [String]) -> String {
        path.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined()
    }

    // MARK: Decoding

    /// The document as OpenAPIKit's 3.1 types (a 3.0 document converted), its references checked.
    /// - Throws: ``ImportError`` at the member OpenAPIKit refused, or for a reference it cannot resolve.
    func decoded() throws(ImportError) -> OpenAPIKit.OpenAPI.Document {
        let document: OpenAPIKit.OpenAPI.Document
        do {
            // Yams keeps the document's key order, which OpenAPIKit's ordered dictionaries then keep too (JSONDecoder
            // promises no order), so "the first example" is the first written. From the text, not the composed
            // tree: YAMLDecoder's own parse reads every key as text, where the tree's `'200'` would not match the
            // key `200` OpenAPIKit asks for.
            switch version {
            case .v30: document = try YAMLDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: text).convert(to: .v3_1_0)
            case .v31: document = try YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: text)
            }
        } catch {
            let described = OpenAPIKit.OpenAPI.Error(from: error)
            let pointer = ImportError.pointer(described.codingPath)
            let mark = node(at: pointer)?.mark
            throw ImportError(file: file, line: mark?.line, column: mark?.column, pointer: pointer,
                              problem: "\(described.localizedDescription) Correct the document; it is not valid OpenAPI \(version == .v30 ? "3.0" : "3.1").")
        }
        do {
            // The second check of references, OpenAPIKit's own. A cycle (a tree whose nodes hold nodes) is fine
            // in a schema, and the body generator caps its depth, so only other failures are refused.
            _ = try document.locallyDereferenced()
        } catch is OpenAPIKit.OpenAPI.Components.ReferenceCycleError {
        } catch {
            throw ImportError(file: file, problem: "a reference does not resolve: \(OpenAPIKit.OpenAPI.Error(from: error).localizedDescription) Correct it, or add what it names under /components.")
        }
        return document
    }

    /// A YAML syntax error with its line and column.
    private static func located(_ error: YamlError, file: String) -> ImportError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let what = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
            return ImportError(file: file, line: mark.line, column: mark.column,
                               problem: "\(what); this is not an OpenAPI document (YAML or JSON that parses).")
        default:
            return ImportError(file: file, problem: "\(error); this is not an OpenAPI document (YAML or JSON that parses).")
        }
    }
}
