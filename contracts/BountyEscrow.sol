// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title Bounty escrow
/// @notice Holds one ERC-20 escrow per bounty: the client funds it (`fund`) before anyone has
/// claimed the bounty, and an arbiter's EIP-712 signed decision pays it out once (`resolve`): all
/// to the provider the decision names (release: an accepted delivery or a dispute won), all back
/// to the client (refund: cancelled, expired unclaimed, or a dispute lost), or a split. Anyone may
/// submit a signed decision; only an account with `ARBITER_ROLE` may sign one. EIP-712 domain:
/// name "BountyEscrow", version "1".
/// @dev Tokens that take a fee on transfer are not supported: the escrow records the amount asked
/// for, not the amount received.
contract BountyEscrow is AccessControl, EIP712, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice The role whose members sign decisions.
    bytes32 public constant ARBITER_ROLE = keccak256("ARBITER_ROLE");

    /// @notice EIP-712 type hash of {Decision}.
    bytes32 public constant DECISION_TYPEHASH =
        keccak256("Decision(bytes32 bountyId,bytes32 disputeId,address provider,uint256 toProvider,uint256 toClient)");

    /// @notice An arbiter's payout of one bounty's escrow, in the token's smallest units. `disputeId`
    /// is zero for a payout without a dispute (an accepted delivery, a cancellation, an expiry);
    /// `provider` receives `toProvider` (the zero address when `toProvider` is zero).
    struct Decision {
        bytes32 bountyId;
        bytes32 disputeId;
        address provider;
        uint256 toProvider;
        uint256 toClient;
    }

    /// @notice One bounty's escrow.
    struct Escrow {
        IERC20 token;
        address client;
        uint256 amount;
        bool resolved;
    }

    /// @notice The escrow of each bounty (a zero client: none).
    mapping(bytes32 bountyId => Escrow) public escrows;

    event Funded(bytes32 indexed bountyId, address indexed client, address token, uint256 amount);
    event Resolved(
        bytes32 indexed bountyId, bytes32 indexed disputeId, address indexed arbiter, address provider, uint256 toProvider, uint256 toClient
    );

    error InvalidFunding();
    error AlreadyFunded(bytes32 bountyId);
    error NotFunded(bytes32 bountyId);
    error AlreadyResolved(bytes32 bountyId);
    error AmountMismatch(uint256 escrowed, uint256 decided);
    error NotArbiter(address signer);
    error NoProvider();

    /// @param admin may grant and revoke roles (DEFAULT_ADMIN_ROLE).
    /// @param arbiter the first arbiter (the platform's signer), or the zero address for none.
    constructor(address admin, address arbiter) EIP712("BountyEscrow", "1") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        if (arbiter != address(0)) _grantRole(ARBITER_ROLE, arbiter);
    }

    /// @notice Escrows `amount` of `token` for `bountyId`, pulled from the caller (the client),
    /// who must have approved it. One escrow per bounty; the provider is named only at payout.
    function fund(bytes32 bountyId, IERC20 token, uint256 amount) external nonReentrant {
        if (amount == 0 || address(token) == address(0)) revert InvalidFunding();
        if (escrows[bountyId].client != address(0)) revert AlreadyFunded(bountyId);
        escrows[bountyId] = Escrow({token: token, client: msg.sender, amount: amount, resolved: false});
        token.safeTransferFrom(msg.sender, address(this), amount);
        emit Funded(bountyId, msg.sender, address(token), amount);
    }

    /// @notice The EIP-712 digest an arbiter signs for `decision` (this contract's domain).
    function decisionDigest(Decision calldata decision) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    DECISION_TYPEHASH, decision.bountyId, decision.disputeId, decision.provider, decision.toProvider, decision.toClient
                )
            )
        );
    }

    /// @notice Pays out the escrow of `decision.bountyId` as an arbiter decided, exactly once:
    /// `toProvider` to `decision.provider`, `toClient` to the client; the two must add up to the
    /// escrow, and a positive `toProvider` needs a provider.
    function resolve(Decision calldata decision, bytes calldata signature) external nonReentrant {
        Escrow storage escrow = escrows[decision.bountyId];
        if (escrow.client == address(0)) revert NotFunded(decision.bountyId);
        if (escrow.resolved) revert AlreadyResolved(decision.bountyId);
        uint256 decided = decision.toProvider + decision.toClient;
        if (decided != escrow.amount) revert AmountMismatch(escrow.amount, decided);
        if (decision.toProvider > 0 && decision.provider == address(0)) revert NoProvider();
        address signer = ECDSA.recover(decisionDigest(decision), signature);
        if (!hasRole(ARBITER_ROLE, signer)) revert NotArbiter(signer);
        escrow.resolved = true;
        if (decision.toProvider > 0) escrow.token.safeTransfer(decision.provider, decision.toProvider);
        if (decision.toClient > 0) escrow.token.safeTransfer(escrow.client, decision.toClient);
        emit Resolved(decision.bountyId, decision.disputeId, signer, decision.provider, decision.toProvider, decision.toClient);
    }
}
