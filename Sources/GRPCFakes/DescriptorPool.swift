package import Foundation
package import SwiftProtobuf

/// The messages, enums and methods of a descriptor set (`protoc --descriptor_set_out=FILE --include_imports`), by
/// full name: what a scenario's gRPC routes read and write messages with. swift-protobuf has no dynamic messages, so
/// the descriptors themselves drive the codec (ProtobufJSON.swift).
package struct DescriptorPool: Sendable {
    /// A method of a service, by its path.
    package struct Method: Sendable {
        /// `/package.Service/Method`.
        package var path: String
        /// The request and response messages' full names.
        package var input: String
        package var output: String
        package var clientStreaming: Bool
        package var serverStreaming: Bool
    }

    package private(set) var messages: [String: Google_Protobuf_DescriptorProto] = [:]
    package private(set) var enums: [String: Google_Protobuf_EnumDescriptorProto] = [:]
    package private(set) var methods: [String: Method] = [:]

    /// Why a descriptor set could not be read.
    package struct LoadError: Error, Sendable {
        package var message: String
    }

    /// The pool of the descriptor set `bytes` (a serialized `google.protobuf.FileDescriptorSet`).
    package init(descriptorSet bytes: Data) throws(LoadError) {
        let set: Google_Protobuf_FileDescriptorSet
        do {
            set = try Google_Protobuf_FileDescriptorSet(serializedBytes: bytes)
        } catch {
            throw LoadError(message: "is not a descriptor set (\(error)); write one with protoc --descriptor_set_out=FILE --include_imports")
        }
        guard !set.file.isEmpty else { throw LoadError(message: "is an empty descriptor set; write one with protoc --descriptor_set_out=FILE --include_imports") }
        for file in set.file {
            let prefix = file.package.isEmpty ? "" : file.package + "."
            for message in file.messageType { add(message, prefix: prefix) }
            for type in file.enumType { enums[prefix + type.name] = type }
            for service in file.service {
                for method in service.method {
                    let path = "/\(prefix)\(service.name)/\(method.name)"
                    methods[path] = Method(path: path, input: Self.fullName(method.inputType), output: Self.fullName(method.outputType),
                                           clientStreaming: method.clientStreaming, serverStreaming: method.serverStreaming)
                }
            }
        }
        // A message that names a type the set lacks was written without --include_imports.
        for (name, message) in messages {
            for field in message.field where field.type == .message || field.type == .enum {
                let type = Self.fullName(field.typeName)
                guard messages[type] == nil, enums[type] == nil else { continue }
                throw LoadError(message: "lacks \(type), the type of \(name).\(field.name); write the set with protoc --include_imports")
            }
        }
    }

    private mutating func add(_ message: Google_Protobuf_DescriptorProto, prefix: String) {
        let name = prefix + message.name
        messages[name] = message
        for nested in message.nestedType { add(nested, prefix: name + ".") }
        for type in message.enumType { enums[name + "." + type.name] = type }
    }

    /// A type name as descriptors write it (`.transit.Position`) without its leading dot.
    static func fullName(_ typeName: String) -> String {
        typeName.hasPrefix(".") ? String(typeName.dropFirst()) : typeName
    }
}
