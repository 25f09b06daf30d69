// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";

/// @notice The ERC-8004 ("Trustless Agents") Identity Registry: each agent is an ERC-721 token whose id is the
/// agent's `agentId` and whose token URI (`agentURI`) points at the agent's registration file
/// (type https://eips.ethereum.org/EIPS/eip-8004#registration-v1). Registering mints the next id to the caller.
/// On-chain metadata is a key → bytes map per agent (`setMetadata`, `getMetadata`), written by the token's owner
/// or an approved operator.
contract IdentityRegistry is ERC721URIStorage {
    /// @notice One on-chain metadata entry given at registration.
    struct MetadataEntry {
        string metadataKey;
        bytes metadataValue;
    }

    /// @notice A new agent: `agentId` minted to `owner` with `agentURI`.
    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    /// @notice The agent's URI changed.
    event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);
    /// @notice A metadata entry of the agent was set.
    event MetadataSet(uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue);

    /// @notice The caller is neither the agent's owner nor approved for it.
    error NotAgentOwnerOrOperator(uint256 agentId, address caller);

    uint256 private _nextAgentId;
    mapping(uint256 agentId => mapping(string metadataKey => bytes)) private _metadata;

    constructor() ERC721("AgentIdentity", "AGENT") {}

    /// @notice Registers a new agent with a URI; returns its id (ids start at 0 and increase by one).
    function register(string calldata agentURI) external returns (uint256 agentId) {
        agentId = _mintAgent(agentURI);
    }

    /// @notice Registers a new agent with a URI and on-chain metadata.
    function register(string calldata agentURI, MetadataEntry[] calldata metadata) external returns (uint256 agentId) {
        agentId = _mintAgent(agentURI);
        for (uint256 i = 0; i < metadata.length; i++) {
            _setMetadata(agentId, metadata[i].metadataKey, metadata[i].metadataValue);
        }
    }

    /// @notice Registers a new agent without a URI (set it later with `setAgentURI`).
    function register() external returns (uint256 agentId) {
        agentId = _mintAgent("");
    }

    /// @notice Changes the agent's URI (the owner or an approved operator).
    function setAgentURI(uint256 agentId, string calldata newURI) external {
        _requireOwnerOrOperator(agentId);
        _setTokenURI(agentId, newURI);
        emit URIUpdated(agentId, newURI, msg.sender);
    }

    /// @notice Sets one metadata entry of the agent (the owner or an approved operator).
    function setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue) external {
        _requireOwnerOrOperator(agentId);
        _setMetadata(agentId, metadataKey, metadataValue);
    }

    /// @notice One metadata entry of the agent (empty when unset).
    function getMetadata(uint256 agentId, string calldata metadataKey) external view returns (bytes memory) {
        _requireOwned(agentId);
        return _metadata[agentId][metadataKey];
    }

    function _mintAgent(string memory agentURI) private returns (uint256 agentId) {
        agentId = _nextAgentId++;
        _safeMint(msg.sender, agentId);
        if (bytes(agentURI).length > 0) _setTokenURI(agentId, agentURI);
        emit Registered(agentId, agentURI, msg.sender);
    }

    function _setMetadata(uint256 agentId, string memory metadataKey, bytes memory metadataValue) private {
        _metadata[agentId][metadataKey] = metadataValue;
        emit MetadataSet(agentId, metadataKey, metadataKey, metadataValue);
    }

    function _requireOwnerOrOperator(uint256 agentId) private view {
        address owner = _requireOwned(agentId);
        if (!_isAuthorized(owner, msg.sender, agentId)) revert NotAgentOwnerOrOperator(agentId, msg.sender);
    }
}
